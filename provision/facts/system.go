package facts

import (
	"math/bits"
	"regexp"
	"strconv"
	"strings"
)

// cmdline sets ansible_cmdline and ansible_proc_cmdline from /proc/cmdline,
// split as Python's shlex.split(posix=False) splits it (quotes kept, no
// escapes); proc_cmdline keeps every value of a repeated key, in a list.
func cmdline(r *raw, f map[string]any) {
	data := strings.TrimSpace(r.values["cmdline"])
	if data == "" {
		return
	}
	one, all := map[string]any{}, map[string]any{}
	if pieces, ok := shlexSplit(data); ok {
		for _, p := range pieces {
			k, v, hasValue := strings.Cut(p, "=")
			if !hasValue {
				one[k], all[k] = true, true
				continue
			}
			one[k] = v
			switch prev := all[k].(type) {
			case nil:
				all[k] = v
			case []any:
				all[k] = append(prev, v)
			default:
				all[k] = []any{prev, v}
			}
		}
	}
	f["cmdline"], f["proc_cmdline"] = one, all
}

// shlexSplit is Python's shlex.split(s, posix=False): words split on
// blanks, a quote that starts a word runs to its closing quote (kept, and
// ending the word), a quote inside a word is an ordinary character. false
// when a quote is never closed.
func shlexSplit(s string) ([]string, bool) {
	var out []string
	var tok strings.Builder
	state := ' '
	for _, c := range s {
		blank := c == ' ' || c == '\t' || c == '\r' || c == '\n'
		switch state {
		case ' ':
			if blank {
				continue
			}
			tok.WriteRune(c)
			state = 'a'
			if c == '"' || c == '\'' {
				state = c
			}
		case 'a':
			if blank {
				out = append(out, tok.String())
				tok.Reset()
				state = ' '
			} else {
				tok.WriteRune(c)
			}
		default:
			tok.WriteRune(c)
			if c == state {
				out = append(out, tok.String())
				tok.Reset()
				state = ' '
			}
		}
	}
	switch state {
	case '"', '\'':
		return nil, false
	case 'a':
		out = append(out, tok.String())
	}
	return out, true
}

// dns sets ansible_dns from /etc/resolv.conf.
func dns(r *raw, f map[string]any) {
	d := map[string]any{}
	for _, line := range r.files["/etc/resolv.conf"] {
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";") {
			continue
		}
		t := strings.Fields(line)
		if len(t) == 0 {
			continue
		}
		switch t[0] {
		case "nameserver":
			d["nameservers"] = append(append([]any{}, list(d["nameservers"])...), strs(t[1:])...)
		case "domain":
			if len(t) > 1 {
				d["domain"] = t[1]
			}
		case "search", "sortlist":
			d[t[0]] = strs(t[1:])
		case "options":
			opts := map[string]any{}
			for _, o := range t[1:] {
				if k, v, ok := strings.Cut(o, ":"); ok && v != "" {
					opts[k] = v
				} else {
					opts[k] = true
				}
			}
			d["options"] = opts
		}
	}
	f["dns"] = d
}

// security sets fips, apparmor, selinux and selinux_python_present.
// SELinux's state is read from the kernel as libselinux reads it, so it
// is known without Python; selinux_python_present says whether the host's
// Python (if any) could load libselinux, as it does in Ansible.
func security(r *raw, f map[string]any) {
	f["fips"] = strings.TrimSpace(r.values["fips"]) == "1"
	f["apparmor"] = map[string]any{"status": map[bool]string{true: "enabled", false: "disabled"}[r.paths["/sys/kernel/security/apparmor"]]}
	se := map[string]any{"status": "disabled"}
	if _, mounted := r.values["selinuxfs"]; mounted && r.paths["/etc/selinux/config"] {
		se["status"] = "enabled"
		se["policyvers"] = "unknown"
		if n, err := strconv.Atoi(strings.TrimSpace(r.values["selinux_policyvers"])); err == nil {
			se["policyvers"] = n
		}
		se["config_mode"], se["type"] = "unknown", "targeted"
		for _, line := range r.files["/etc/selinux/config"] {
			line = strings.TrimSpace(line)
			if v, ok := strings.CutPrefix(line, "SELINUX="); ok {
				se["config_mode"] = "unknown"
				for _, m := range []string{"enforcing", "permissive", "disabled"} {
					if strings.HasPrefix(strings.ToLower(v), m) {
						se["config_mode"] = m
					}
				}
			} else if v, ok := strings.CutPrefix(line, "SELINUXTYPE="); ok {
				se["type"] = strings.TrimSpace(v)
			}
		}
		se["mode"] = map[string]string{"1": "enforcing", "0": "permissive"}[strings.TrimSpace(r.values["selinux_enforce"])]
		if se["mode"] == "" {
			se["mode"] = "unknown"
		}
	}
	f["selinux"] = se
	f["selinux_python_present"] = r.values["python_selinux"] == "True"
}

// capabilities sets system_capabilities and system_capabilities_enforced
// from `capsh --print`, "N/A" without capsh. As in Ansible, the list holds
// what follows the "=" of the Current: line, split at commas.
func capabilities(r *raw, f map[string]any) {
	f["system_capabilities_enforced"], f["system_capabilities"] = "N/A", "N/A"
	if r.bins["capsh"] == "" {
		return
	}
	if eff, last, ok := plainCaps(r.values["caps"]); ok {
		// The script found the sets plain and did not run capsh: its
		// Current line is "=ep" with every capability set, "NAMES=ep"
		// with at most half of them, "=" with none.
		switch n := bits.OnesCount64(eff); {
		case n == last+1:
			f["system_capabilities_enforced"], f["system_capabilities"] = "False", []any{}
		case n == 0:
			f["system_capabilities_enforced"], f["system_capabilities"] = "True", []any{""}
		case 2*n <= last+1:
			f["system_capabilities_enforced"], f["system_capabilities"] = "True", []any{"ep"}
		}
		return
	}
	lines, ok := r.files["capsh"]
	if !ok {
		return
	}
	enforced, caps := "NA", []any{}
	for _, line := range lines {
		if !strings.HasPrefix(line, "Current:") {
			continue
		}
		if strings.TrimSpace(strings.Split(line, ":")[1]) == "=ep" {
			enforced = "False"
			continue
		}
		enforced, caps = "True", []any{}
		if parts := strings.Split(line, "="); len(parts) > 1 {
			for _, c := range strings.Split(parts[1], ",") {
				caps = append(caps, strings.TrimSpace(c))
			}
		}
	}
	f["system_capabilities_enforced"], f["system_capabilities"] = enforced, caps
}

// plainCaps reads the script's v|caps|EFFECTIVE LAST: the effective set
// (hex) and the kernel's last capability, where it took capsh's answer
// from the sets themselves.
func plainCaps(v string) (eff uint64, last int, ok bool) {
	hex, lastText, found := strings.Cut(v, " ")
	if !found {
		return 0, 0, false
	}
	eff, err := strconv.ParseUint(hex, 16, 64)
	if err != nil {
		return 0, 0, false
	}
	last, err = strconv.Atoi(lastText)
	if err != nil || last < 0 || last > 62 || eff>>(last+1) != 0 {
		return 0, 0, false
	}
	return eff, last, true
}

// chroot sets is_chroot: $debian_chroot, else whether / is PID 1's root
// (same device and inode), else, for users who cannot see PID 1's root,
// whether /'s inode is its filesystem's root inode.
func chroot(r *raw, f map[string]any) {
	switch {
	case r.env["debian_chroot"] != "":
		f["is_chroot"] = true
	case r.values["same_root"] != "":
		f["is_chroot"] = false
	case r.values["root_inode"] != "":
		want := "2"
		if s, ok := r.mountSizes()["/"]; ok {
			switch {
			case strings.Contains(s.fstype, "btrfs"):
				want = "256"
			case strings.Contains(s.fstype, "xfs"):
				want = "128"
			}
		}
		f["is_chroot"] = strings.TrimSpace(r.values["root_inode"]) != want
	default:
		f["is_chroot"] = true
	}
}

// sshHostKeys sets ssh_host_key_<algo>_public and _keytype from the first
// of /etc/ssh, /etc/openssh and /etc that has keys (Ansible stops at the
// first algorithm already found in an earlier directory).
func sshHostKeys(r *raw, f map[string]any) {
	keys := map[string]any{}
	for _, dir := range []string{"/etc/ssh", "/etc/openssh", "/etc"} {
		for _, algo := range []string{"dsa", "rsa", "ecdsa", "ed25519"} {
			name := "ssh_host_key_" + algo + "_public"
			if _, ok := keys[name]; ok {
				goto done
			}
			content, ok := r.file(dir + "/ssh_host_" + algo + "_key.pub")
			if !ok || strings.TrimSpace(content) == "" {
				continue
			}
			fs := strings.Fields(content)
			if len(fs) < 2 {
				return // Ansible's collector fails: no keys at all
			}
			keys[name], keys[name+"_keytype"] = fs[1], fs[0]
		}
	}
done:
	for k, v := range keys {
		f[k] = v
	}
}

// userIDs sets the real and effective user and group ids of the shell
// (effective_group_id is the real one, as in Ansible).
func userIDs(r *raw, f map[string]any) {
	if u := strings.Fields(r.values["uids"]); len(u) == 2 {
		f["real_user_id"], f["effective_user_id"] = atoi(u[0]), atoi(u[1])
	}
	if g := strings.Fields(r.values["gids"]); len(g) == 2 {
		f["real_group_id"], f["effective_group_id"] = atoi(g[0]), atoi(g[0])
	}
}

// loadavg sets ansible_loadavg from /proc/loadavg (two decimals, where
// Ansible's getloadavg reads the kernel's finer fixed-point numbers).
func loadavg(r *raw, f map[string]any) {
	fs := strings.Fields(r.values["loadavg"])
	if len(fs) < 3 {
		return
	}
	l := map[string]any{}
	for i, k := range []string{"1m", "5m", "15m"} {
		n, err := strconv.ParseFloat(fs[i], 64)
		if err != nil {
			return
		}
		l[k] = n
	}
	f["loadavg"] = l
}

// lsb sets ansible_lsb from lsb_release -a, else /etc/lsb-release.
func lsb(r *raw, f map[string]any) {
	l := map[string]string{}
	for _, line := range r.files["lsb_release"] {
		_, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch {
		case strings.Contains(line, "LSB Version:"):
			l["release"] = v
		case strings.Contains(line, "Distributor ID:"):
			l["id"] = v
		case strings.Contains(line, "Description:"):
			l["description"] = v
		case strings.Contains(line, "Release:"):
			l["release"] = v
		case strings.Contains(line, "Codename:"):
			l["codename"] = v
		}
	}
	if len(l) == 0 {
		content, _ := r.file("/etc/lsb-release")
		if content = strings.TrimSpace(content); content != "" {
			for _, line := range strings.Split(content, "\n") {
				_, v, ok := strings.Cut(line, "=")
				if !ok {
					return // Ansible's collector fails on such a line
				}
				v = strings.TrimSpace(v)
				for _, k := range [][2]string{{"DISTRIB_ID", "id"}, {"DISTRIB_RELEASE", "release"},
					{"DISTRIB_DESCRIPTION", "description"}, {"DISTRIB_CODENAME", "codename"}} {
					if strings.Contains(line, k[0]) {
						l[k[1]] = v
						break
					}
				}
			}
		}
	}
	if rel, ok := l["release"]; ok {
		l["major_release"] = strings.Split(rel, ".")[0]
	}
	out := map[string]any{}
	for k, v := range l {
		out[k] = strings.Trim(v, `'"\`)
	}
	f["lsb"] = out
}

// storageIDs sets iscsi_iqn, hostnqn and fibre_channel_wwn.
func storageIDs(r *raw, f map[string]any) {
	f["iscsi_iqn"] = ""
	content, _ := r.file("/etc/iscsi/initiatorname.iscsi")
	for _, line := range strings.Split(strings.TrimSpace(content), "\n") {
		if v, ok := strings.CutPrefix(line, "InitiatorName="); ok {
			f["iscsi_iqn"] = v
			break
		}
	}
	f["hostnqn"] = ""
	content, _ = r.file("/etc/nvme/hostnqn")
	for _, line := range strings.Split(strings.TrimSpace(content), "\n") {
		if strings.HasPrefix(line, "nqn.") {
			f["hostnqn"] = line
			break
		}
	}
	wwn := []any{}
	for _, line := range r.files["/sys/class/fc_host"] {
		if line = strings.TrimRight(line, " \t\r"); len(line) >= 2 {
			wwn = append(wwn, line[2:])
		} else if strings.TrimSpace(line) != "" {
			wwn = append(wwn, "")
		}
	}
	f["fibre_channel_wwn"] = wwn
}

var reI86 = regexp.MustCompile(`i([3456]86|86pc)`)

// userspace sets userspace_bits (of the host's own tools, where Ansible
// reports its Python's) and userspace_architecture on x86, and machine_id.
func userspace(r *raw, f map[string]any) {
	bits := r.values["userspace_bits"]
	if bits != "" {
		f["userspace_bits"] = bits
	}
	machine := r.values["machine"]
	if machine == "x86_64" || reI86.MatchString(machine) {
		switch bits {
		case "64":
			f["userspace_architecture"] = "x86_64"
		case "32":
			f["userspace_architecture"] = "i386"
		}
	}
	if id := strings.TrimSpace(r.values["machine_id"]); id != "" {
		f["machine_id"] = id
	}
}
