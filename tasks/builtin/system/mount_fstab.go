package system

import (
	"strconv"
	"strings"
)

// The pure parts of the mount module: editing an fstab's text as
// ansible.posix's mount does on Linux, and reading the host's mount table
// (/proc/self/mountinfo, mount -v) to tell whether a path is mounted.

// fstabEntry is the fstab line a task asks for, its fields as the task
// gives them (not escaped); hasSrc says src was given (the swap rule
// compares it).
type fstabEntry struct {
	src, name, fstype, opts, dump, passno string
	hasSrc                                bool
}

// fstabEscape escapes what an fstab field cannot hold as written: a
// backslash, a space and an ampersand become \134, \040 and \046.
func fstabEscape(s string) string {
	return strings.NewReplacer(`\`, `\134`, " ", `\040`, "&", `\046`).Replace(s)
}

// pySpace tells the characters Python's str.split() and str.strip()
// take for white space.
func pySpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f, 0x85, 0xa0, 0x1680,
		0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// pyFields splits s at runs of white space as Python's str.split().
func pyFields(s string) []string { return strings.FieldsFunc(s, pySpace) }

// fstabLines splits an fstab's text into lines as Python's text-mode
// readlines does: \r\n and \r read as \n, each line keeps its end.
func fstabLines(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	var out []string
	for text != "" {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			out = append(out, text)
			break
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}

// skipLine tells a line neither edit looks at: blank or a comment.
func skipLine(line string) bool {
	t := strings.TrimFunc(line, pySpace)
	return t == "" || strings.HasPrefix(t, "#")
}

// other tells whether a line's fields (src, name, fstype) describe
// another mount than e: another mount point or, for swap (mount point
// none), another source when the task gives one.
func (e fstabEntry) other(src, name, fstype string) bool {
	return name != fstabEscape(e.name) || e.hasSrc && name == "none" && fstype == "swap" && src != e.src
}

// line is e as an fstab line.
func (e fstabEntry) line() string {
	return strings.Join([]string{fstabEscape(e.src), fstabEscape(e.name), fstabEscape(e.fstype),
		fstabEscape(e.opts), fstabEscape(e.dump), fstabEscape(e.passno)}, " ") + "\n"
}

// setMount adds e to the fstab text, or brings the line of its mount
// point to e: a line of 4 to 6 fields whose mount point is e's is
// rewritten when a field differs (a missing dump or passno always
// differs), other lines are kept as they are; e is appended when no
// line matches. It returns the new text, whether it changed and the old
// text as read (every line ending with a newline), which a failed mount
// puts back.
func setMount(text string, e fstabEntry) (after string, changed bool, old string) {
	var out, olds strings.Builder
	exists := false
	want := []string{fstabEscape(e.src), fstabEscape(e.fstype), fstabEscape(e.opts), fstabEscape(e.dump), fstabEscape(e.passno)}
	for _, line := range fstabLines(text) {
		if !strings.HasSuffix(line, "\n") {
			line += "\n"
		}
		olds.WriteString(line)
		f := pyFields(line)
		if skipLine(line) || len(f) < 4 || len(f) > 6 || e.other(f[0], f[1], f[2]) {
			out.WriteString(line)
			continue
		}
		exists = true
		// src, fstype, opts, dump, passno as the line has them; a field
		// the line lacks (dump, passno) never equals the task's.
		have := append([]string{f[0], f[2], f[3]}, f[4:]...)
		differs := len(have) < len(want)
		for i := range have {
			if have[i] != want[i] {
				differs = true
			}
		}
		if differs {
			changed = true
			out.WriteString(e.line())
		} else {
			out.WriteString(line)
		}
	}
	if !exists {
		out.WriteString(e.line())
		changed = true
	}
	return out.String(), changed, olds.String()
}

// unsetMount removes from the fstab text the lines of e's mount point
// (only lines of exactly 6 fields match), keeping every other line as it
// is, and says whether it removed any.
func unsetMount(text string, e fstabEntry) (after string, changed bool) {
	var out strings.Builder
	for _, line := range fstabLines(text) {
		f := pyFields(line)
		if skipLine(line) || len(f) != 6 || e.other(f[0], f[1], f[2]) {
			out.WriteString(line)
			continue
		}
		changed = true
	}
	return out.String(), changed
}

// bootOpts applies boot= to opts as the module does on Linux: opts with
// noauto ignore boot (with a warning); boot=false adds noauto unless the
// opts hold defaults (then a warning). It returns the opts, the boot
// value reported ("yes" or "no") and the warning, "" for none.
func bootOpts(opts string, boot bool) (string, string, string) {
	list := strings.Split(opts, ",")
	has := func(w string) bool {
		for _, o := range list {
			if o == w {
				return true
			}
		}
		return false
	}
	switch {
	case has("noauto"):
		return opts, "yes", "Ignore the 'boot' due to 'opts' contains 'noauto'."
	case boot:
		return opts, "yes", ""
	case has("defaults"):
		return opts, "no", "Ignore the 'boot' due to 'opts' contains 'defaults'."
	}
	return strings.Join(append(list, "noauto"), ","), "no", ""
}

// linuxMount is one mount of /proc/self/mountinfo: its source as the
// module sees it (for a bind mount, the directory mounted).
type linuxMount struct{ src, opts, fs string }

// parseMountinfo reads /proc/self/mountinfo's text into the mounts by
// mount point, the source of a mount under another (a bind mount) being
// its root within the parent's mount point. Malformed lines are skipped.
func parseMountinfo(text string) map[string]linuxMount {
	type rec struct {
		id, parent              int
		root, dst, opts, fs, sr string
	}
	byID := map[int]*rec{}
	var order []int
	for _, line := range strings.Split(text, "\n") {
		f := pyFields(line)
		if len(f) < 7 {
			continue
		}
		id, err1 := strconv.Atoi(f[0])
		parent, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil {
			continue
		}
		if _, dup := byID[id]; !dup {
			order = append(order, id)
		}
		byID[id] = &rec{id: id, parent: parent, root: f[3], dst: f[4], opts: f[5], fs: f[len(f)-3], sr: f[len(f)-2]}
	}
	out := map[string]linuxMount{}
	for _, id := range order {
		m := byID[id]
		src := m.sr
		if p, ok := byID[m.parent]; ok && m.parent != 1 {
			root := m.root
			if len(p.root) > 1 && strings.HasPrefix(root, p.root+"/") {
				root = root[len(p.root):]
			}
			if p.dst != "/" {
				root = p.dst + root
			}
			src = root
		}
		out[m.dst] = linuxMount{src: src, opts: m.opts, fs: m.fs}
	}
	return out
}

// mountTable is what the host told of its mounts: the mountinfo mounts
// (nil when /proc/self/mountinfo could not be read) and the lines of
// mount -v (read when needed).
type mountTable struct {
	linux  map[string]linuxMount
	mountV []string
}

// bindMounted tells whether dest is mounted (from *src, when src is not
// nil): from mountinfo, or, without it, from mount's listing (whose
// fields are src on dest type fstype; fstype nil for any).
func (t mountTable) bindMounted(dest string, src, fstype *string) bool {
	if t.linux != nil {
		m, ok := t.linux[dest]
		return ok && (src == nil || m.src == *src)
	}
	for _, l := range t.mountV {
		f := pyFields(l)
		if len(f) >= 5 && (src == nil || f[0] == *src) && f[2] == dest && (fstype == nil || f[4] == *fstype) {
			return true
		}
	}
	return false
}

// sameSource tells whether the mount on dest is of src (the ephemeral
// state's check before a remount): mounted is whether dest is a mount
// point at all. empty: mount -v, which it had to read, listed nothing.
func (t mountTable) sameSource(mounted bool, src, dest string) (same, empty bool) {
	if !mounted && !t.bindMounted(dest, nil, nil) {
		return false, false
	}
	if t.linux != nil && t.bindMounted(dest, &src, nil) {
		return true, false
	}
	if len(t.mountV) == 0 {
		return false, true
	}
	for _, l := range t.mountV {
		if f := pyFields(l); len(f) >= 3 && f[0] == src && f[2] == dest {
			return true, false
		}
	}
	return false, false
}
