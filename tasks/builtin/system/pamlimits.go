package system

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// pamLimitsModule sets one limit (domain, type, item, value) in a
// pam_limits configuration file as community.general.pam_limits 6.6
// does: the file is created when missing (in check mode, only
// reported), the
// matching lines are rewritten tab-separated with the comment rules of
// that module, a missing limit is appended, and the result always
// carries the file's text before and after. One round trip reads (and
// creates, and backs up) the file; a second writes it when it changes.
type pamLimitsModule struct{}

var _ tasks.Module = (*pamLimitsModule)(nil)

// pamItems are the limit items pam_limits accepts, in its order (its
// choices message lists them so).
var pamItems = []string{"core", "data", "fsize", "memlock", "nofile", "rss", "stack", "cpu", "nproc", "as",
	"maxlogins", "maxsyslogins", "priority", "locks", "sigpending", "msgqueue", "nice", "rtprio", "chroot"}

var pamLimitsArgs = &tasks.Spec{
	Module: "pam_limits",
	Params: []tasks.Param{
		{Name: "domain", Required: true},
		{Name: "limit_type", Required: true, Choices: []string{"soft", "hard", "-"}},
		{Name: "limit_item", Required: true, Choices: pamItems},
		{Name: "value", Required: true},
		{Name: "use_max", Kind: tasks.Bool, Default: false},
		{Name: "use_min", Kind: tasks.Bool, Default: false},
		{Name: "backup", Kind: tasks.Bool, Default: false},
		{Name: "dest", Default: "/etc/security/limits.conf"},
		{Name: "comment", Default: ""},
	},
}

// pamLimitsReadScript checks and reads $p (creating it, backing it up):
// see the script's header.
//
//go:embed pamlimits_read.sh
var pamLimitsReadScript string

// Run sets the limit.
func (pamLimitsModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := pamLimitsArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	e := limitEdit{domain: a.Str("domain"), typ: a.Str("limit_type"), item: a.Str("limit_item"),
		value: a.Str("value"), useMax: a.Bool("use_max"), useMin: a.Bool("use_min"), comment: a.Str("comment")}
	p := a.Str("dest")
	// The module checks its arguments only once the file exists: a bad
	// value still creates it, but no backup is made then.
	argFail := ""
	if e.useMax && e.useMin {
		argFail = "Cannot use use_min and use_max at the same time."
	} else {
		argFail = limitValueError(e.item, e.value, "")
	}
	// Check mode changes nothing: no file is created and no backup
	// taken (Ansible's module does both).
	backup := a.Bool("backup") && argFail == "" && !env.Check
	script := shared.ShAssign([][2]string{{"p", p}, {"dir", pyDirname(p)}, {"backup", shared.BoolFlag(backup)},
		{"check", shared.BoolFlag(env.Check)}}) +
		pamLimitsReadScript
	out, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v := shared.ParseVerdict(shared.BeforeMarker(out.Stdout))
	switch {
	case v["ok"] != "1":
		return shared.FailWith(shared.ScriptError(out), nil)
	case v["fail"] != "":
		return shared.FailWith(v["fail"], nil)
	case v["isdir"] == "1":
		return pyCrash(fmt.Sprintf("IsADirectoryError: [Errno 21] Is a directory: %s", shared.PyRepr(p)))
	case argFail != "":
		return shared.FailWith(argFail, nil)
	}
	raw, ok := shared.Section(out.Stdout, "content", "")
	if !ok || out.ExitCode != 0 {
		return shared.FailWith(shared.ScriptError(out), nil)
	}
	after, changed, msg, fail := e.apply(p, raw)
	if fail != "" {
		return shared.FailWith(fail, nil)
	}
	if !env.Check && after != raw {
		f := &shared.TextFile{Path: p, Real: p, Exists: true, Content: []byte(raw)}
		_, wmsg, err := f.WriteText(ctx, env, []byte(after), shared.WriteOpts{})
		if err != nil {
			return tasks.Result{}, err
		}
		if wmsg != "" {
			return shared.FailWith(wmsg, nil)
		}
	}
	before, afterText := pyTextRead(raw), pyTextRead(after)
	data := map[string]any{"msg": msg, "diff": map[string]any{"before": before, "after": afterText}}
	if backup {
		data["backup_file"] = v["backup_file"]
	}
	res := tasks.Result{Changed: changed || v["created"] == "1", Msg: msg, Data: data}
	if env.Diff && before != afterText {
		// Ansible labels a diff without headers "before" and "after".
		res.Diff = strings.Replace(shared.UnifiedDiff("\x00", before, afterText), "--- before: \x00\n+++ after: \x00\n",
			"--- before\n+++ after\n", 1)
	}
	return res, nil
}

func (pamLimitsModule) Spec() *tasks.Spec { return pamLimitsArgs }

// limitEdit is the limit a pam_limits task asks for.
type limitEdit struct {
	domain, typ, item, value, comment string
	useMax, useMin                    bool
}

// apply edits the file's text as the module does and returns the new
// text, whether a limit line changed or was added, the module's msg (the
// line written or found) or the failure for a bad value in the file
// (named path).
func (e limitEdit) apply(path, text string) (after string, changed bool, msg, fail string) {
	var b strings.Builder
	found, newValue, comment := false, e.value, e.comment
	for _, line := range splitKeepNL(text) {
		if strings.HasPrefix(line, "#") {
			b.WriteString(line)
			continue
		}
		norm := pyCollapseSpace(line)
		if norm == "" {
			b.WriteString(line)
			continue
		}
		norm, _, _ = strings.Cut(norm, "#")
		norm = strings.TrimRightFunc(norm, pyIsSpace)
		// A comment on any limit line becomes the comment of the lines
		// written when the task gives none (the module's rule).
		if _, old, ok := strings.Cut(line, "#"); ok && comment == "" {
			comment = old
		}
		fields := strings.Split(norm, " ")
		if len(fields) != 4 {
			b.WriteString(line)
			continue
		}
		if f := limitValueError(fields[2], fields[3], fmt.Sprintf("Invalid configuration found in '%s'.", path)); f != "" {
			return "", false, "", f
		}
		if fields[0] != e.domain || fields[1] != e.typ || fields[2] != e.item {
			b.WriteString(line)
			continue
		}
		found = true
		actual := fields[3]
		if e.value == actual {
			msg = line
			b.WriteString(line)
			continue
		}
		newValue = e.pick(actual, newValue)
		if newValue == actual {
			msg = line
			b.WriteString(line)
			continue
		}
		changed = true
		if comment != "" {
			comment = "\t#" + comment
		}
		msg = e.domain + "\t" + e.typ + "\t" + e.item + "\t" + newValue + comment + "\n"
		b.WriteString(msg)
	}
	if !found {
		changed = true
		if comment != "" {
			comment = "\t#" + comment
		}
		msg = e.domain + "\t" + e.typ + "\t" + e.item + "\t" + newValue + comment + "\n"
		b.WriteString(msg)
	}
	return b.String(), changed, msg, ""
}

// pick is the value use_max or use_min keeps against the file's actual
// value (prev without either: the value asked, or the one an earlier
// matching line settled on). Unlimited values ('unlimited', 'infinity',
// '-1') win use_max and lose use_min.
func (e limitEdit) pick(actual, prev string) string {
	actualUnl, valueUnl := isUnlimited(actual), isUnlimited(e.value)
	x, _ := pyInt(e.value)
	y, _ := pyInt(actual)
	switch {
	case e.useMax && actualUnl:
		return actual
	case e.useMax && valueUnl:
		return e.value
	case e.useMax:
		return strconv.FormatInt(max(x, y), 10)
	case e.useMin && actualUnl && valueUnl:
		return actual
	case e.useMin && actualUnl:
		return e.value
	case e.useMin && valueUnl:
		return actual
	case e.useMin:
		return strconv.FormatInt(min(x, y), 10)
	}
	return prev
}

// isUnlimited reports a value that means no limit.
func isUnlimited(v string) bool { return v == "unlimited" || v == "infinity" || v == "-1" }

// limitValueError is the module's failure for a value that item cannot
// take ("" when it can), after prefix.
func limitValueError(item, value, prefix string) string {
	if item == "nice" || item == "priority" {
		if n, ok := pyInt(value); ok && n >= -20 && n <= 19 {
			return ""
		}
		return fmt.Sprintf("%s Value of %s for item %s is invalid. Value must be a number in the range -20 to 19 inclusive. "+
			"Refer to the limits.conf(5) manual pages for more details.", prefix, shared.PyRepr(value), shared.PyRepr(item))
	}
	if isUnlimited(value) || isDigits(value) {
		return ""
	}
	return fmt.Sprintf("%s Value of %s for item %s is invalid. Value must either be 'unlimited', 'infinity' or -1, all of "+
		"which indicate no limit, or a limit of 0 or larger. Refer to the limits.conf(5) manual pages for more details.",
		prefix, shared.PyRepr(value), shared.PyRepr(item))
}

// isDigits is Python's str.isdigit for ASCII digits: not empty, digits
// only.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// pyInt parses s as Python's int(s) does in base 10 (surrounding
// whitespace, a sign, underscores between digits), for values that fit
// an int64.
func pyInt(s string) (int64, bool) {
	s = strings.TrimFunc(s, pyIsSpace)
	digits := strings.TrimLeft(s, "+-")
	if len(s)-len(digits) > 1 || digits == "" || digits[0] == '_' || digits[len(digits)-1] == '_' ||
		strings.Contains(digits, "__") {
		return 0, false
	}
	n, err := strconv.ParseInt(s[:len(s)-len(digits)]+strings.ReplaceAll(digits, "_", ""), 10, 64)
	return n, err == nil && isDigits(strings.ReplaceAll(digits, "_", ""))
}

// pyIsSpace is Python's str.isspace for one character.
func pyIsSpace(r rune) bool {
	switch {
	case r == ' ' || (r >= '\t' && r <= '\r') || (r >= 0x1c && r <= 0x1f) || r == 0x85 || r == 0xa0:
		return true
	case r < 0x1680:
		return false
	}
	return r == 0x1680 || (r >= 0x2000 && r <= 0x200a) || r == 0x2028 || r == 0x2029 || r == 0x202f ||
		r == 0x205f || r == 0x3000
}

// pyCollapseSpace replaces each run of whitespace of line by one space
// and strips the ends, as re.sub(r'\s+', ' ', line).strip().
func pyCollapseSpace(line string) string {
	var b strings.Builder
	space := false
	for _, r := range line {
		if pyIsSpace(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// splitKeepNL splits s after each newline, as iterating over a binary
// file does.
func splitKeepNL(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// pyTextRead is s as Python reads a text file: \r\n and \r become \n.
func pyTextRead(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// pyDirname is Python's os.path.dirname: "" for a bare name.
func pyDirname(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ""
	}
	head := p[:i+1]
	if strings.Trim(head, "/") != "" {
		head = strings.TrimRight(head, "/")
	}
	return head
}

// pyCrash is the result Ansible gives when a module dies of an exception
// it does not catch, whose last traceback line is last.
func pyCrash(last string) (tasks.Result, error) {
	return tasks.Result{Failed: true, Msg: "MODULE FAILURE\nSee stdout/stderr for the exact error", RC: 1,
		Data: map[string]any{"rc": 1, "module_stdout": "", "module_stderr": "Traceback (most recent call last):\n" + last + "\n"}}, nil
}
