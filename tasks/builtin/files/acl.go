package files

import (
	"context"
	_ "embed"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// aclModule reads, grants or revokes a POSIX ACL entry with getfacl and
// setfacl, as ansible.posix's acl module (1.5.4) does: setfacl --test
// says whether the entry would change anything, setfacl applies it
// (outside check mode) and getfacl reads the ACL the task returns. One
// round trip, whatever the state.
type aclModule struct{}

var _ tasks.Module = (*aclModule)(nil)

var aclArgs = &tasks.Spec{
	Module: "acl",
	Params: []tasks.Param{
		{Name: "path", Kind: tasks.Path, Required: true, Aliases: []string{"name"}},
		{Name: "entry"},
		{Name: "entity", Default: ""},
		{Name: "etype", Choices: []string{"group", "mask", "other", "user"}},
		{Name: "permissions"},
		{Name: "state", Default: "query", Choices: []string{"absent", "present", "query"}},
		{Name: "follow", Kind: tasks.Bool, Default: true},
		{Name: "default", Kind: tasks.Bool, Default: false},
		{Name: "recursive", Kind: tasks.Bool, Default: false, Aliases: []string{"recurse"}},
		{Name: "recalculate_mask", Default: "default", Choices: []string{"default", "mask", "no_mask"}},
		{Name: "use_nfsv4_acls", Kind: tasks.Bool, Default: false},
	},
}

// aclScript checks that $path exists, then runs the commands the plan
// defined as shell functions (_acl_set, _acl_get) and prints the verdict
// (nopath=, nobin=, changed=, failed= with rc=, done=) followed by the
// output of getfacl, or of the command that failed (_t_tail).
//
//go:embed acl.sh
var aclScript string

// aclPlan is what a task asks of acl once its arguments are checked:
// a failure message or a Python error to report once the path is known
// to exist, or the setfacl words (op "set" or "rm") and the getfacl
// words to run, path left out.
type aclPlan struct {
	fail, crash string
	op, msg     string
	set, get    []string
}

// planACL checks the arguments as the module does, in its order, and
// builds its commands: the entry from entry (split as the module splits
// it) or from etype, entity and permissions.
func planACL(a tasks.Values) aclPlan {
	state, entry := a.Str("state"), a.Str("entry")
	etype, entity, perms := a.Str("etype"), a.Str("entity"), a.Str("permissions")
	// hasPerms: permissions is not None (it may be empty).
	hasEtype, hasPerms := a.Has("etype"), a.Has("permissions")
	def, recursive, mask := a.Bool("default"), a.Bool("recursive"), a.Str("recalculate_mask")
	if state == "query" {
		if recursive {
			return aclPlan{fail: "'recursive' MUST NOT be set when 'state=query'."}
		}
		if mask == "mask" || mask == "no_mask" {
			return aclPlan{fail: "'recalculate_mask' MUST NOT be set to 'mask' or 'no_mask' when 'state=query'."}
		}
	}
	if entry == "" {
		switch {
		case state == "absent" && perms != "":
			return aclPlan{fail: "'permissions' MUST NOT be set when 'state=absent'."}
		case state == "absent" && entity == "":
			return aclPlan{fail: "'entity' MUST be set when 'state=absent'."}
		case state != "query" && (!hasEtype || etype == ""):
			return aclPlan{fail: "'etype' MUST be set when 'state=" + state + "'."}
		}
	} else {
		colons := strings.Count(entry, ":")
		switch {
		case etype != "" || entity != "" || perms != "":
			return aclPlan{fail: "'entry' MUST NOT be set when 'entity', 'etype' or 'permissions' are set."}
		case state == "present" && colons != 2 && colons != 3:
			return aclPlan{fail: "'entry' MUST have 3 or 4 sections divided by ':' when 'state=present'."}
		case state == "absent" && colons != 1 && colons != 2:
			return aclPlan{fail: "'entry' MUST have 2 or 3 sections divided by ':' when 'state=absent'."}
		case state == "query":
			return aclPlan{fail: "'entry' MUST NOT be set when 'state=query'."}
		}
		d, t, e, p, pSet, crash := splitACLEntry(entry)
		if crash != "" {
			return aclPlan{crash: crash}
		}
		if d {
			def = true
		}
		etype, hasEtype, entity, perms, hasPerms = t, t != "", e, p, pSet
	}
	p := aclPlan{get: aclWords("get", a.Bool("follow"), def, recursive, mask, ""), op: state}
	nfs := a.Bool("use_nfsv4_acls")
	switch state {
	case "present":
		ent, crash := buildACLEntry(etype, hasEtype, entity, perms, hasPerms, nfs)
		if crash != "" {
			return aclPlan{crash: crash}
		}
		p.op, p.msg = "set", ent+" is present"
		p.set = aclWords("set", a.Bool("follow"), def, recursive, mask, ent)
	case "absent":
		// The module passes use_nfsv4_acls where the permissions go: a
		// true one is a bool joined to text, which Python refuses.
		var ent string
		switch {
		case !hasEtype:
			return aclPlan{crash: "TypeError: unsupported operand type(s) for +: 'NoneType' and 'str'"}
		case nfs:
			return aclPlan{crash: "TypeError: can only concatenate str (not \"bool\") to str"}
		default:
			ent = etype + ":" + entity
		}
		p.op, p.msg = "rm", ent+" is absent"
		p.set = aclWords("rm", a.Bool("follow"), def, recursive, mask, ent)
	default:
		p.op, p.msg = "get", "current acl"
	}
	return p
}

// splitACLEntry splits an entry as the module does: a leading d (any
// case) makes it a default entry and is dropped as the first section;
// the type's first letter names it (t is "" for an unknown one). A
// section count the module cannot unpack is its Python error (crash).
// pSet is false when the entry has no permissions section (None).
func splitACLEntry(entry string) (d bool, t, e, p string, pSet bool, crash string) {
	parts := strings.Split(entry, ":")
	if strings.HasPrefix(strings.ToLower(entry), "d") {
		d, parts = true, parts[1:]
	}
	pSet = true
	if len(parts) == 2 {
		parts, pSet = append(parts, ""), false
	}
	switch {
	case len(parts) > 3:
		return false, "", "", "", false, "ValueError: too many values to unpack (expected 3)"
	case len(parts) < 3:
		return false, "", "", "", false, "ValueError: not enough values to unpack (expected 3, got " + strconv.Itoa(len(parts)) + ")"
	}
	switch lt := strings.ToLower(parts[0]); {
	case strings.HasPrefix(lt, "u"):
		t = "user"
	case strings.HasPrefix(lt, "g"):
		t = "group"
	case strings.HasPrefix(lt, "m"):
		t = "mask"
	case strings.HasPrefix(lt, "o"):
		t = "other"
	}
	return d, t, parts[1], parts[2], pSet, ""
}

// buildACLEntry is the entry setfacl -m takes: type:entity[:perms] (no
// perms when they are empty), or with NFSv4 ACLs type:entity:perms:allow;
// a missing type (or, for NFSv4, permissions that are None: hasPerms
// false) is the Python error the module stops with.
func buildACLEntry(etype string, hasEtype bool, entity, perms string, hasPerms, nfs bool) (string, string) {
	if nfs {
		switch {
		case !hasEtype:
			return "", "TypeError: sequence item 0: expected str instance, NoneType found"
		case !hasPerms:
			return "", "TypeError: sequence item 2: expected str instance, NoneType found"
		}
		return strings.Join([]string{etype, entity, perms, "allow"}, ":"), ""
	}
	if !hasEtype {
		return "", "TypeError: unsupported operand type(s) for +: 'NoneType' and 'str'"
	}
	if perms != "" {
		return etype + ":" + entity + ":" + perms, ""
	}
	return etype + ":" + entity, ""
}

// aclWords are the words of a getfacl (mode "get") or setfacl -m/-x
// (set/rm) command line after the program, as the module orders them,
// the path left out.
func aclWords(mode string, follow, def, recursive bool, mask, entry string) []string {
	var w []string
	switch mode {
	case "set":
		w = []string{"-m", entry}
	case "rm":
		w = []string{"-x", entry}
	default:
		w = []string{"--omit-header", "--absolute-names"}
	}
	if recursive {
		w = append(w, "--recursive")
	}
	if mode != "get" && mask == "mask" {
		w = append(w, "--mask")
	} else if mode != "get" && mask == "no_mask" {
		w = append(w, "--no-mask")
	}
	if !follow {
		w = append(w, "--physical")
	}
	if def {
		w = append([]string{"-d"}, w...)
	}
	return w
}

// aclLines are the lines of getfacl's or setfacl's output as the module
// keeps them: comment lines dropped, the others stripped, a last empty
// line dropped.
func aclLines(out string) []string {
	lines := []string{}
	for _, l := range pySplitLines(out) {
		if !strings.HasPrefix(l, "#") {
			lines = append(lines, strings.TrimFunc(l, pySpace))
		}
	}
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	return lines
}

// pySpace is what Python's str.strip() strips.
func pySpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

// pySplitLines splits s at line boundaries as Python's str.splitlines
// does (for the ASCII ones and \x85).
func pySplitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexAny(s, "\n\r\v\f\x1c\x1d\x1e\u0085\u2028\u2029")
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i])
		n := 1
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			n = 2
		} else if s[i] >= 0x80 {
			_, n = utf8.DecodeRuneInString(s[i:])
		}
		s = s[i+n:]
	}
	return out
}

// Run plans the task and runs it in one script.
func (aclModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := aclArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	p := planACL(a)
	op := p.op
	if p.fail != "" || p.crash != "" {
		op = "none"
	}
	script := shared.SysFuncs + "path=" + shared.ShPath(a.Str("path")) + "\n" +
		shared.ShAssign([][2]string{{"op", op}, {"check", shared.BoolFlag(env.Check)}}) +
		"_acl_set() { _t_step \"$@\" " + quoteWords(p.set) + " \"$path\"; }\n" +
		"_acl_get() { _t_step \"$1\" " + quoteWords(p.get) + " \"$path\"; }\n" + aclScript
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	return p.result(res.Stdout, env.Check, shared.ScriptError(res))
}

// result is the task's result for the script's output.
func (p aclPlan) result(stdout []byte, check bool, scriptErr string) (tasks.Result, error) {
	v, out, errOut := shared.Tailed(stdout)
	path := v["path"]
	switch {
	case v["nopath"] == "1":
		return shared.Fail("Path not found or not accessible."), nil
	case p.fail != "":
		return shared.Fail(p.fail), nil
	case p.crash != "":
		return pyCrash("acl", "main", p.crash), nil
	case v["nobin"] != "":
		return shared.Fail("Failed to find required executable \"" + v["nobin"] + "\" in paths: " + v["paths"]), nil
	case v["failed"] != "":
		var argv []string
		switch v["failed"] {
		case "test":
			argv = append(append([]string{v["sf"], "--test"}, p.set...), path)
		case "apply":
			argv = append(append([]string{v["sf"]}, p.set...), path)
		default:
			argv = append(append([]string{v["gf"]}, p.get...), path)
		}
		rc, _ := strconv.Atoi(v["rc"])
		data := map[string]any{"cmd": shared.PyCleanArgs(argv), "rc": rc, "stdout": out, "stdout_lines": shared.Lines(out),
			"stderr": errOut, "stderr_lines": shared.Lines(errOut)}
		return tasks.Result{Failed: true, Msg: shared.PySanitize(strings.TrimRightFunc(errOut, pySpace)), Data: data}, nil
	case v["done"] != "1":
		return shared.Fail(scriptErr), nil
	}
	acl := []any{}
	for _, l := range aclLines(out) {
		acl = append(acl, l)
	}
	return tasks.Result{Changed: v["changed"] == "1", Msg: p.msg, Data: map[string]any{"acl": acl, "msg": p.msg}}, nil
}

// pyCrash is the result of a Python module that stopped with an
// uncaught exception in function fn: Ansible's MODULE FAILURE with the
// traceback's last lines on the module's stdout.
func pyCrash(module, fn, exc string) tasks.Result {
	tb := "Traceback (most recent call last):\n  File \"ansible_collections/ansible/posix/plugins/modules/" + module +
		".py\", in " + fn + "\n" + exc + "\n"
	return tasks.Result{Failed: true, RC: 1, Msg: "MODULE FAILURE\nSee stdout/stderr for the exact error",
		Data: map[string]any{"rc": 1, "module_stdout": tb, "module_stderr": ""}}
}

// quoteWords quotes each word for the shell and joins them.
func quoteWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = shared.Q(w)
	}
	return strings.Join(q, " ")
}

// Spec returns acl's arguments.
func (aclModule) Spec() *tasks.Spec { return aclArgs }
