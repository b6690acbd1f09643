package facts

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/provision/transport"
)

// Gather runs Script on the host (one round trip) and parses its output.
func Gather(ctx context.Context, conn transport.Conn) (map[string]any, error) {
	res, err := conn.Run(ctx, transport.Cmd{Script: Script})
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
// "distribution_version", "default_ipv4", "env", …
func Parse(out []byte) (map[string]any, error) {
	r, err := parseRaw(string(out))
	if err != nil {
		return nil, err
	}
	f := distribution(r)
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
	f["user_id"] = v["user_id"]
	f["user_uid"] = atoi(v["user_uid"])
	f["user_gid"] = atoi(v["user_gid"])
	if pw := strings.Split(v["passwd"], ":"); len(pw) == 7 {
		f["user_gecos"], f["user_dir"], f["user_shell"] = pw[4], pw[5], pw[6]
	}
	f["processor_vcpus"] = atoi(v["cpus"])
	f["memtotal_mb"] = atoi(v["memtotal_kb"]) / 1024
	f["pkg_mgr"] = pkgMgr(r, f)
	f["service_mgr"] = serviceMgr(r)
	f["default_ipv4"], f["all_ipv4_addresses"] = ipv4(r)
	env := make(map[string]any, len(r.env))
	for k, val := range r.env {
		env[k] = val
	}
	f["env"] = env
	if py := pythonFacts(v); py != nil {
		f["python"] = py
		vi := py["version_info"].([]any)
		f["python_version"] = fmt.Sprintf("%d.%d.%d", vi[0], vi[1], vi[2])
	}
	return f, nil
}

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
// whole map as ansible_facts, and each fact again as ansible_<name>.
func Vars(facts map[string]any) map[string]any {
	out := make(map[string]any, len(facts)+1)
	for k, v := range facts {
		out["ansible_"+k] = v
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

// ipv4 builds ansible_default_ipv4 (from the route to a public address; no
// packet is sent) and ansible_all_ipv4_addresses (every address that is not
// host-scoped). Without the ip command both are empty, as in Ansible.
func ipv4(r *raw) (map[string]any, []any) {
	def := map[string]any{}
	all := []any{}
	type addr struct{ dev, cidr, brd, scope string }
	var addrs []addr
	for _, line := range r.files["ip4addr"] {
		fs := strings.Fields(strings.SplitN(line, `\`, 2)[0])
		if len(fs) < 4 || fs[2] != "inet" {
			continue
		}
		a := addr{dev: fs[1], cidr: fs[3]}
		for i := 4; i+1 < len(fs); i++ {
			switch fs[i] {
			case "brd":
				a.brd = fs[i+1]
			case "scope":
				a.scope = fs[i+1]
			}
		}
		addrs = append(addrs, a)
		if a.scope != "host" {
			all = append(all, strings.SplitN(a.cidr, "/", 2)[0])
		}
	}
	route := strings.Fields(r.values["route4"])
	field := func(k string) string {
		for i := 0; i+1 < len(route); i++ {
			if route[i] == k {
				return route[i+1]
			}
		}
		return ""
	}
	dev, src := field("dev"), field("src")
	if dev == "" || src == "" {
		return def, all
	}
	def["interface"], def["address"], def["alias"] = dev, src, dev
	if gw := field("via"); gw != "" {
		def["gateway"] = gw
	}
	for _, a := range addrs {
		ip, n, err := net.ParseCIDR(a.cidr)
		if err != nil || a.dev != dev || ip.String() != src {
			continue
		}
		ones, _ := n.Mask.Size()
		def["prefix"] = strconv.Itoa(ones)
		def["netmask"] = net.IP(n.Mask).String()
		def["network"] = n.IP.String()
		if a.brd != "" {
			def["broadcast"] = a.brd
		}
	}
	if mac := r.values["dev_mac"]; mac != "" {
		def["macaddress"] = mac
	}
	if mtu := r.values["dev_mtu"]; mtu != "" {
		def["mtu"] = atoi(mtu)
	}
	switch r.values["dev_type"] {
	case "1":
		def["type"] = "ether"
	case "772":
		def["type"] = "loopback"
	case "":
	default:
		def["type"] = "unknown"
	}
	return def, all
}
