package system

import (
	"context"
	_ "embed"
	"fmt"
	"regexp"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// sysctlModule sets a kernel parameter in a sysctl file and, when asked,
// in the running kernel, as ansible.posix's sysctl module does on Linux.
// One round trip reads the running value and the file; a second writes
// the file (a temporary file and a rename), sets the value and reloads,
// only when something changes. Where the kernel refuses (a container's
// read-only /proc/sys), the task fails with sysctl's own error.
type sysctlModule struct{}

var _ tasks.Module = (*sysctlModule)(nil)

var sysctlArgs = &tasks.Spec{
	Module: "sysctl",
	Params: []tasks.Param{
		{Name: "name", Required: true, Aliases: []string{"key"}},
		{Name: "value", Aliases: []string{"val"}},
		{Name: "state", Default: "present", Choices: []string{"present", "absent"}},
		{Name: "reload", Kind: tasks.Bool, Default: true},
		{Name: "sysctl_set", Kind: tasks.Bool, Default: false},
		{Name: "ignoreerrors", Kind: tasks.Bool, Default: false},
		{Name: "sysctl_file", Kind: tasks.Path, Default: "/etc/sysctl.conf"},
	},
}

// sysctlReadScript prints the running value of $name (proc=, absent when
// sysctl has none) and the file $f.
//
//go:embed sysctl_read.sh
var sysctlReadScript string

// sysctlApplyScript sets the running value ($set) and reloads the file
// ($reload) after the file was written.
var sysctlApplyScript = shared.MarkVars + sysctlApplyScriptBody

//go:embed sysctl_apply.sh
var sysctlApplyScriptBody string

var sysctlBoolTrue = map[string]bool{"y": true, "yes": true, "on": true, "1": true, "true": true, "t": true, "1.0": true}
var sysctlBoolFalse = map[string]bool{"n": true, "no": true, "off": true, "0": true, "false": true, "f": true, "0.0": true}

// sysctlComment matches a comment line of a sysctl file.
var sysctlComment = regexp.MustCompile(`^[#;]`)

// Run sets (or removes) the parameter.
func (sysctlModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := sysctlArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	fail := func(msg string) (tasks.Result, error) {
		return tasks.Result{Failed: true, Msg: msg, Data: map[string]any{}}, nil
	}
	state := a.Str("state")
	if state == "present" && !a.Has("value") {
		return tasks.Result{}, fmt.Errorf("state is present but all of the following are missing: value")
	}
	if a.Str("name") == "" {
		return fail("name cannot be blank")
	}
	if state == "present" && a.Str("value") == "" {
		return fail("value cannot be blank")
	}
	name := strings.TrimSpace(a.Str("name"))
	value := ""
	if a.Has("value") {
		value = tasks.ToText(a.Str("value"))
		switch l := strings.ToLower(value); {
		case sysctlBoolTrue[l]:
			value = "1"
		case sysctlBoolFalse[l]:
			value = "0"
		default:
			value = strings.TrimSpace(value)
		}
	}
	script := fmt.Sprintf("f=%s\nname=%s\n%s%s", shared.ShPath(a.Str("sysctl_file")), shared.Q(name), sysctlReadScript, shared.ReadLinesScript)
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, content := shared.SplitContent(res.Stdout)
	if v["fail"] != "" {
		return fail(v["fail"])
	}
	if res.ExitCode != 0 || v["f"] == "" {
		return fail(shared.ScriptError(res))
	}
	file := v["f"]
	proc, procOK := v["proc"]

	// The file's values and the lines it would have, as Ansible rewrites it.
	var fileVal *string
	var fixed []string
	checked := map[string]bool{}
	for _, raw := range shared.SplitLinesKeep(content) {
		line := strings.TrimSpace(raw)
		if line == "" || sysctlComment.MatchString(line) || !strings.Contains(line, "=") {
			fixed = append(fixed, line)
			continue
		}
		k, val, _ := strings.Cut(line, "=")
		k, val = strings.TrimSpace(k), strings.TrimSpace(val)
		if k == name {
			x := val
			fileVal = &x
		}
		if checked[k] {
			continue
		}
		checked[k] = true
		if k != name {
			fixed = append(fixed, k+"="+val)
		} else if state == "present" {
			fixed = append(fixed, k+"="+value)
		}
	}
	if !checked[name] && state == "present" {
		fixed = append(fixed, name+"="+value)
	}

	changed, writeFile, setProc := false, false, false
	same := func(a, b string) bool {
		return strings.Join(strings.Fields(a), " ") == strings.Join(strings.Fields(b), " ")
	}
	switch {
	case fileVal == nil && state == "present":
		changed, writeFile = true, true
	case fileVal == nil:
	case *fileVal != "" && state == "absent":
		changed, writeFile = true, true
	case *fileVal != value:
		changed, writeFile = true, true
	case a.Bool("reload"):
		changed = !procOK || !same(proc, value)
	}
	if a.Bool("sysctl_set") && state == "present" {
		if !procOK {
			changed = true
		} else if !same(proc, value) {
			changed, setProc = true, true
		}
	}
	r := tasks.Result{Changed: changed, Data: map[string]any{}}
	if env.Check || !changed {
		return r, nil
	}
	if writeFile {
		var b strings.Builder
		for _, l := range fixed {
			b.WriteString(strings.TrimSpace(l) + "\n")
		}
		msg, _, err := shared.WriteText(ctx, env, file, b.String(), content, v["exists"] == "1", "")
		if err != nil {
			return tasks.Result{}, err
		}
		if msg != "" {
			return fail(msg)
		}
	}
	if !setProc && !a.Bool("reload") {
		return r, nil
	}
	script = fmt.Sprintf("%sf=%s\nname=%s\nvalue=%s\nset=%s\nreload=%s\nignore=%s\n%s", shared.SysFuncs, shared.Q(file), shared.Q(name), shared.Q(value),
		shared.BoolFlag(setProc), shared.BoolFlag(a.Bool("reload")), shared.BoolFlag(a.Bool("ignoreerrors")), sysctlApplyScript)
	res, err = shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	av, _, msg := shared.Tailed(res.Stdout)
	if av["fail"] != "" {
		return fail(msg)
	}
	if res.ExitCode != 0 || av["applied"] != "1" {
		return fail(shared.ScriptError(res))
	}
	return r, nil
}

func (sysctlModule) Spec() *tasks.Spec { return sysctlArgs }
