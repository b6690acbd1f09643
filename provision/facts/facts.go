package facts

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/transport"
)

// Gather runs Script on the host (one round trip) and parses its output.
func Gather(ctx context.Context, conn transport.Conn) (map[string]any, error) {
	return GatherWith(ctx, conn, Script)
}

// GatherWith is Gather with script, a fact script of ScriptFor and
// WithTimeout.
func GatherWith(ctx context.Context, conn transport.Conn, script string) (map[string]any, error) {
	// Direct: every program the script starts ends before it does (the
	// mount sizes' stat under timeout too: timeout waits for it), and
	// local facts' programs write into the script's own pipes, so its
	// stdout can go straight into the answer, without a file and a cat.
	res, err := conn.Run(ctx, transport.Cmd{Script: script, Direct: true})
	if err != nil {
		return nil, fmt.Errorf("gathering facts: %w", err)
	}
	if res.ExitCode != 0 {
		return nil, fmt.Errorf("gathering facts: the fact script exited %d: %s", res.ExitCode, strings.TrimSpace(string(res.Stderr)))
	}
	return Parse(res.Stdout)
}

// Parse turns the fact script's output into facts, named as they are under
// ansible_facts (without the "ansible_" prefix): "os_family",
// "distribution_version", "default_ipv4", "env", "mounts", …, with the
// values, types and quirks of ansible-core 2.14's setup module.
func Parse(out []byte) (map[string]any, error) {
	r, err := parseRaw(string(out))
	if err != nil {
		return nil, err
	}
	if t, ok := r.symlinks()["/sbin/init"]; ok {
		r.values["sbin_init"] = t
	}
	f := distribution(r)
	distributionFile(r, f)
	v := r.values
	f["system"] = v["system"]
	f["kernel"] = v["kernel"]
	f["kernel_version"] = v["kernel_version"]
	f["machine"] = v["machine"]
	f["architecture"] = architecture(v["machine"])
	f["nodename"] = v["nodename"]
	f["hostname"] = strings.SplitN(v["nodename"], ".", 2)[0]
	fqdn := getfqdn(v["nodename"], v["fqdn_names"])
	f["fqdn"] = fqdn
	f["domain"] = ""
	if _, d, ok := strings.Cut(fqdn, "."); ok {
		f["domain"] = d
	}
	userspace(r, f)
	lsb(r, f)
	security(r, f)
	chroot(r, f)
	f["user_id"] = v["user_id"]
	f["user_uid"] = atoi(v["user_uid"])
	f["user_gid"] = atoi(v["user_gid"])
	if pw := strings.Split(v["passwd"], ":"); len(pw) == 7 {
		f["user_gecos"], f["user_dir"], f["user_shell"] = pw[4], pw[5], pw[6]
	}
	userIDs(r, f)
	capabilities(r, f)
	f["pkg_mgr"] = pkgMgr(r, f)
	f["service_mgr"] = serviceMgr(r)
	cmdline(r, f)
	dateTime(r, f)
	env := make(map[string]any, len(r.env))
	for k, val := range r.env {
		env[k] = val
	}
	f["env"] = env
	loadavg(r, f)
	sshHostKeys(r, f)
	if py := pythonFacts(v); py != nil {
		f["python"] = py
		vi := py["version_info"].([]any)
		f["python_version"] = fmt.Sprintf("%d.%d.%d", vi[0], vi[1], vi[2])
	}
	virtualization(r, f)
	cpu(r, f)
	memory(r, f)
	dmi(r, f)
	devices(r, f)
	uptime(r, f)
	lvm(r, f)
	mounts(r, f)
	dns(r, f)
	network(r, f)
	storageIDs(r, f)
	localFacts(r, f)
	f["gather_subset"] = []any{"all"}
	f["module_setup"] = true
	return f, nil
}

// unprefixed are the facts setup returns without the ansible_ prefix.
var unprefixed = map[string]bool{"gather_subset": true, "module_setup": true}

// Unprefixed reports whether a fact is a variable under its own name, not
// ansible_<name> (gather_subset, module_setup), as setup returns it.
func Unprefixed(name string) bool { return unprefixed[name] }

// pythonFacts is ansible_python, as Ansible's setup reports the Python it
// runs under: nil on a host without one.
func pythonFacts(v map[string]string) map[string]any {
	parts := strings.Fields(v["python_version_info"])
	if v["python_executable"] == "" || len(parts) != 5 {
		return nil
	}
	info := []any{atoi(parts[0]), atoi(parts[1]), atoi(parts[2]), parts[3], atoi(parts[4])}
	return map[string]any{
		"executable":     v["python_executable"],
		"has_sslcontext": v["python_sslcontext"] == "True",
		"type":           v["python_type"],
		"version_info":   info,
		"version": map[string]any{"major": info[0], "minor": info[1], "micro": info[2],
			"releaselevel": info[3], "serial": info[4]},
	}
}

// Vars returns facts as play variables, the way Ansible injects them: the
// whole map as ansible_facts, and each fact again as ansible_<name>
// (gather_subset and module_setup under their own names, as setup
// returns them).
func Vars(facts map[string]any) map[string]any {
	out := make(map[string]any, len(facts)+1)
	for k, v := range facts {
		if unprefixed[k] {
			out[k] = v
		} else {
			out["ansible_"+k] = v
		}
	}
	out["ansible_facts"] = facts
	return out
}

func atoi(s string) int {
	n, _ := strconv.Atoi(strings.TrimSpace(s))
	return n
}

func architecture(machine string) string {
	switch machine {
	case "i386", "i486", "i586", "i686":
		return "i386"
	}
	return machine
}

// getfqdn follows Python's socket.getfqdn: the first name with a dot among
// the canonical name and aliases of the node name's address, else the
// canonical name, else the node name itself.
func getfqdn(nodename, names string) string {
	fields := strings.Fields(names)
	if len(fields) == 0 {
		return nodename
	}
	for _, n := range fields {
		if strings.Contains(n, ".") {
			return n
		}
	}
	return fields[0]
}

// pkgManagers are the paths Ansible looks for, in its order: the last one
// present wins, before the per-family rules.
var pkgManagers = []struct{ path, name string }{
	{"/usr/bin/rpm-ostree", "atomic_container"}, {"/usr/bin/yum", "yum"}, {"/usr/bin/dnf", "dnf"},
	{"/usr/bin/apt-get", "apt"}, {"/usr/bin/zypper", "zypper"}, {"/usr/sbin/urpmi", "urpmi"},
	{"/usr/bin/pacman", "pacman"}, {"/bin/opkg", "opkg"}, {"/sbin/apk", "apk"},
	{"/usr/bin/emerge", "portage"}, {"/usr/bin/xbps-install", "xbps"}, {"/usr/bin/swupd", "swupd"},
}

func pkgMgr(r *raw, f map[string]any) string {
	name := "unknown"
	for _, p := range pkgManagers {
		if r.paths[p.path] {
			name = p.name
		}
	}
	switch f["os_family"] {
	case "RedHat":
		if r.paths["/run/ostree-booted"] {
			return "atomic_container"
		}
		major, err := strconv.Atoi(f["distribution_major_version"].(string))
		dist := f["distribution"]
		switch {
		case dist == "Fedora" && err == nil && major < 23:
			if r.paths["/usr/bin/yum"] {
				name = "yum"
			}
		case dist == "Fedora":
			if r.paths["/usr/bin/dnf"] || err != nil {
				name = "dnf"
			}
		case dist == "Amazon" && err == nil && major < 2022:
			if r.paths["/usr/bin/yum"] {
				name = "yum"
			}
		case dist == "Amazon":
			if r.paths["/usr/bin/dnf"] || err != nil {
				name = "dnf"
			}
		case err == nil && major < 8:
			name = "yum"
		default:
			name = "dnf"
		}
	case "Debian":
		name = "apt"
	}
	return name
}

// serviceMgr follows Ansible: PID 1's name when it is telling, else the
// marks systemd, upstart, OpenRC and SysV init leave, else "service".
func serviceMgr(r *raw) string {
	proc1 := r.values["proc1"]
	if proc1 == "" {
		proc1 = r.values["sbin_init"]
	}
	if i := strings.LastIndex(proc1, "/"); i >= 0 {
		proc1 = proc1[i+1:]
	}
	proc1 = strings.TrimSpace(proc1)
	if proc1 != "" && proc1 != "init" && !strings.HasSuffix(proc1, "sh") {
		switch proc1 {
		case "procd":
			return "openwrt_init"
		case "runit-init":
			return "runit"
		case "svscan":
			return "svc"
		case "openrc-init":
			return "openrc"
		}
		return proc1
	}
	if r.values["system"] != "Linux" {
		return "service"
	}
	_, systemctl := r.bins["systemctl"]
	_, initctl := r.bins["initctl"]
	switch {
	case systemctl && (r.paths["/run/systemd/system"] || r.paths["/dev/.run/systemd"] || r.paths["/dev/.systemd"]):
		return "systemd"
	case initctl && r.paths["/etc/init"]:
		return "upstart"
	case r.paths["/sbin/openrc"]:
		return "openrc"
	case systemctl && strings.HasSuffix(r.values["sbin_init"], "/systemd"):
		return "systemd"
	case r.paths["/etc/init.d"]:
		return "sysvinit"
	}
	return "service"
}
