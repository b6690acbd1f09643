package files

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// syncChanged is the marker ansible.posix's synchronize puts in front of
// each line of rsync's --out-format, to tell rsync's itemized changes
// from the rest of its output.
const syncChanged = "<<CHANGED>>"

// syncLine is rsync's command line for one synchronize task, as
// ansible.posix's module writes it: text whose words are split as
// shlex.split does (rsync_opts are pasted in unquoted, so their words
// split too).
type syncLine struct {
	// Cmd is the line as the module reports it (cmd).
	Cmd string
	// LinkDest is set when link_dest was given: changes are then told
	// from rsync's -vv output differently.
	LinkDest bool
	// Warnings are the module's warnings about its arguments.
	Warnings []string
}

// syncCmdLine builds rsync's command line: rsync is the program's path,
// src and dest the paths as the action formatted them (host:path for the
// host's side), rsh the --rsh command (empty: none; also none when
// rsync_opts carry their own), rsyncPath the --rsync-path (empty: none).
// A failure is the module's message, as it fails for link_dest.
func syncCmdLine(a tasks.Values, rsync, src, dest, rsh, rsyncPath string, check bool) (syncLine, string) {
	cmd := []string{rsync}
	if a.Bool("delay_updates") {
		cmd = append(cmd, "--delay-updates", "-F")
	}
	if a.Bool("compress") {
		cmd = append(cmd, "--compress")
	}
	if t := a.Int("rsync_timeout"); t != 0 {
		cmd = append(cmd, "--timeout="+strconv.Itoa(t))
	}
	if check {
		cmd = append(cmd, "--dry-run")
	}
	for _, f := range []struct{ opt, flag string }{{"delete", "--delete-after"}, {"existing_only", "--existing"},
		{"checksum", "--checksum"}, {"copy_links", "--copy-links"}} {
		if a.Bool(f.opt) {
			cmd = append(cmd, f.flag)
		}
	}
	subs := []string{"recursive", "links", "perms", "times", "owner", "group"}
	if a.Bool("archive") {
		cmd = append(cmd, "--archive")
		for _, s := range subs {
			if a.Has(s) && !a.Bool(s) {
				cmd = append(cmd, "--no-"+s)
			}
		}
	} else {
		for _, s := range subs {
			if a.Has(s) && a.Bool(s) {
				cmd = append(cmd, "--"+s)
			}
		}
	}
	if a.Bool("dirs") {
		cmd = append(cmd, "--dirs")
	}
	opts := a.Strings("rsync_opts")
	if rsh != "" && syncNeedsRsh(src, dest) && !syncHasRsh(opts) {
		cmd = append(cmd, "--rsh="+shared.Q(rsh))
	}
	if rsyncPath != "" {
		cmd = append(cmd, "--rsync-path="+shared.Q(rsyncPath))
	}
	var line syncLine
	for _, o := range opts {
		if o == "" {
			line.Warnings = append(line.Warnings, "The empty string is present in rsync_opts which will cause rsync to"+
				" transfer the current working directory. If this is intended, use \".\""+
				" instead to get rid of this warning. If this is unintended, check for"+
				" problems in your playbook leading to empty string in rsync_opts.")
			break
		}
	}
	cmd = append(cmd, opts...)
	if a.Bool("partial") {
		cmd = append(cmd, "--partial")
	}
	if a.Has("link_dest") {
		line.LinkDest = true
		cmd = append(cmd, "-H", "-vv")
		destDir := syncAbs(filepath.Dir(dest))
		for _, l := range a.Strings("link_dest") {
			lp := syncAbs(syncExpandUser(l))
			if strings.HasPrefix(destDir, lp) {
				return line, fmt.Sprintf("Hardlinking into a subdirectory of the source would cause recursion. %s and %s", destDir, dest)
			}
			cmd = append(cmd, "--link-dest="+lp)
		}
	}
	cmd = append(cmd, "--out-format="+shared.Q(syncChanged+"%i %n%L"))
	if !strings.Contains(src, "@") {
		src = syncExpandUser(src)
	}
	if !strings.Contains(dest, "@") {
		dest = syncExpandUser(dest)
	}
	cmd = append(cmd, shared.Q(src), shared.Q(dest))
	line.Cmd = strings.Join(cmd, " ")
	return line, ""
}

// syncNeedsRsh says whether rsync reaches the other side through a
// remote shell: one path names a host (host:path) and neither is an
// rsync:// URL.
func syncNeedsRsh(src, dest string) bool {
	if strings.HasPrefix(src, "rsync://") || strings.HasPrefix(dest, "rsync://") {
		return false
	}
	return strings.Contains(src, ":") || strings.Contains(dest, ":")
}

// syncHasRsh says whether rsync_opts give their own remote shell.
func syncHasRsh(opts []string) bool {
	for _, o := range opts {
		if strings.Contains(o, "--rsh") {
			return true
		}
	}
	return false
}

// syncLookupEnv reads the controller's environment (a variable for the
// tests).
var syncLookupEnv = os.LookupEnv

// syncExpandUser is Python's os.path.expanduser for the current user: a
// leading ~ (alone or before /) becomes $HOME.
func syncExpandUser(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		h, _ := syncLookupEnv("HOME")
		home := strings.TrimSuffix(h, "/")
		if home == "" && p == "~" {
			return "/"
		}
		return home + p[1:]
	}
	return p
}

// syncAbs is Python's os.path.abspath on the controller.
func syncAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	return a
}

// syncVarRe is Python's posixpath _varprog: $name or ${name}.
var syncVarRe = regexp.MustCompile(`\$(\w+|\{[^}/]*\})`)

// syncExpandVars is Python's os.path.expandvars: a variable of the
// controller's environment is replaced, any other left as written.
func syncExpandVars(s string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	return syncVarRe.ReplaceAllStringFunc(s, func(m string) string {
		name := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(m, "$"), "{"), "}")
		if v, ok := syncLookupEnv(name); ok {
			return v
		}
		return m
	})
}

// syncArgv is the argument vector Ansible's run_command makes of the
// command line: shlex.split's words, each with the controller's
// environment variables and a leading ~ expanded.
func syncArgv(line string) ([]string, error) {
	words, err := syncShlex(line)
	if err != nil {
		return nil, err
	}
	for i, w := range words {
		words[i] = syncExpandUser(syncExpandVars(w))
	}
	return words, nil
}

// syncShlex is Python's shlex.split (POSIX mode, no comments): words
// split on blanks, single quotes literal, double quotes where a
// backslash escapes only a double quote or a backslash, and a backslash
// outside quotes escaping any character.
func syncShlex(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("No closing quotation")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("No closing quotation")
			}
			inWord = true
		case c == '\\':
			if i+1 >= len(s) {
				return nil, fmt.Errorf("No escaped character")
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// syncOutcome reads rsync's output as the module does: whether anything
// changed (a marked line; with link_dest, a marked line that does not
// start with "."), and the output without the markers (msg) and its
// non-empty lines (stdout_lines).
func syncOutcome(out string, linkDest bool) (changed bool, msg string, lines []any) {
	if linkDest {
		changed = !strings.Contains(out, syncChanged+".")
	} else {
		changed = strings.Contains(out, syncChanged)
	}
	msg = strings.ReplaceAll(out, syncChanged, "")
	lines = []any{}
	for _, l := range strings.Split(msg, "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return changed, msg, lines
}

// syncRemote formats the host's side of the transfer as the action
// does: [user@]host:path, in brackets for an IPv6 address; an rsync://
// URL stays as it is.
func syncRemote(host, path, user string) string {
	if strings.HasPrefix(path, "rsync://") {
		return path
	}
	prefix := ""
	if user != "" {
		prefix = user + "@"
	}
	if strings.Contains(host, ":") {
		return "[" + prefix + host + "]:" + path
	}
	return prefix + host + ":" + path
}
