package facts

import (
	"regexp"
	"strconv"
	"strings"
)

var reOctal = regexp.MustCompile(`\\[0-7]{3}`)

// unoctal decodes the \ooo escapes mtab uses for spaces, tabs, newlines
// and backslashes in its fields.
func unoctal(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	return reOctal.ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.ParseUint(m[1:], 8, 32)
		return string(rune(n))
	})
}

// mountSize is one `stat -f` line: the statvfs numbers of a mount point.
// They are Go ints, the one integer type templates know (an int64 would be
// an unknown object to to_json and arithmetic).
type mountSize struct {
	frsize, bsize, blocks, bavail, files, ffree int
	fstype                                      string
}

// mountSizes reads the script's stat -f lines, by path.
func (r *raw) mountSizes() map[string]mountSize {
	out := map[string]mountSize{}
	for _, s := range r.stats {
		nums, rest, _ := strings.Cut(s, "|")
		fstype, p, ok := strings.Cut(rest, "|")
		fs := strings.Fields(nums)
		if !ok || len(fs) != 6 {
			continue
		}
		var n [6]int
		bad := false
		for i, v := range fs {
			var err error
			if n[i], err = strconv.Atoi(v); err != nil {
				bad = true
			}
		}
		if !bad {
			out[p] = mountSize{n[0], n[1], n[2], n[3], n[4], n[5], fstype}
		}
	}
	return out
}

// mounts sets ansible_mounts as Ansible's Linux hardware collector does:
// the entries of /etc/mtab (else /proc/mounts) whose device is a path or a
// network share, with their sizes (statvfs), UUID (lsblk) and ",bind" on
// the options of bind mounts when the host has findmnt. A mount point
// listed twice is reported once, at its first place, with its last entry.
func mounts(r *raw, f map[string]any) {
	binds := map[string]bool{}
	if r.bins["findmnt"] != "" {
		for _, m := range r.files["binds"] {
			// findmnt escapes blanks and backslashes, which Ansible's
			// comparison with mtab's decoded names then misses.
			if m := unoctal(m); !strings.ContainsAny(m, " \t\n\\") {
				binds[m] = true
			}
		}
	}
	uuids := map[string]string{}
	for _, line := range r.files["lsblk"] {
		fs := strings.Fields(line)
		if len(fs) < 2 {
			continue
		}
		dev := strings.Join(fs[:len(fs)-1], " ")
		if _, ok := uuids[dev]; !ok {
			uuids[dev] = fs[len(fs)-1]
		}
	}
	sizes := r.mountSizes()
	timedOut := r.values["stat_rc"] == "124" || r.values["stat_rc"] == "143"
	var order []string
	byMount := map[string]map[string]any{}
	for _, line := range r.files["mtab"] {
		fs := strings.Fields(line)
		if len(fs) < 4 {
			continue
		}
		for i := range fs {
			fs[i] = unoctal(fs[i])
		}
		dev, mnt, fstype, opts := fs[0], fs[1], fs[2], fs[3]
		if (!strings.HasPrefix(dev, "/") && !strings.HasPrefix(dev, `\`) && !strings.Contains(dev, ":/")) || fstype == "none" {
			continue
		}
		if binds[mnt] && !reBindOpt.MatchString(opts) {
			opts += ",bind"
		}
		info := map[string]any{"mount": mnt, "device": dev, "fstype": fstype, "options": opts}
		if s, ok := sizes[mnt]; ok {
			info["size_total"] = s.frsize * s.blocks
			info["size_available"] = s.frsize * s.bavail
			info["block_size"] = s.bsize
			info["block_total"] = s.blocks
			info["block_available"] = s.bavail
			info["block_used"] = s.blocks - s.bavail
			info["inode_total"] = s.files
			info["inode_available"] = s.ffree
			info["inode_used"] = s.files - s.ffree
			info["uuid"] = uuidOr(uuids[dev])
		} else if timedOut {
			info["note"] = "Could not get extra information due to timeout"
		} else {
			info["uuid"] = uuidOr(uuids[dev])
		}
		if _, ok := byMount[mnt]; !ok {
			order = append(order, mnt)
		}
		byMount[mnt] = info
	}
	list := make([]any, 0, len(order))
	for _, m := range order {
		list = append(list, byMount[m])
	}
	f["mounts"] = list
}

// reBindOpt is Ansible's test for options that already say "bind".
var reBindOpt = regexp.MustCompile(`^.*bind.*"`)

func uuidOr(u string) string {
	if u == "" {
		return "N/A"
	}
	return u
}
