package system

import (
	"context"
	_ "embed"
	"fmt"
	"regexp"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
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

// sysctlJob is one sysctl task: its decoded arguments, then the running
// value and the file as read from the host, and the plan.
type sysctlJob struct {
	name, value, state, fileArg string
	reload, set, ignore         bool
	// Set by read: the read script's verdict, the file's expanded path
	// and content, and the running value (procOK unset when sysctl has
	// none).
	v             shared.Verdict
	file, content string
	proc          string
	procOK        bool
	// Set by plan: the file's lines as Ansible rewrites them, whether the
	// task changes anything, writes the file and sets the running value.
	fixed                       []string
	changed, writeFile, setProc bool
}

// Run sets (or removes) the parameter.
func (sysctlModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := sysctlArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j, bad, err := decodeSysctl(a)
	if err != nil {
		return tasks.Result{}, err
	}
	if bad != nil {
		return *bad, nil
	}
	if r, done, err := j.read(ctx, env); done || err != nil {
		return r, err
	}
	j.plan()
	r := tasks.Result{Changed: j.changed, Data: map[string]any{}}
	if env.Check || !j.changed {
		return r, nil
	}
	if j.writeFile {
		if fr, done, err := j.write(ctx, env); done || err != nil {
			return fr, err
		}
	}
	if !j.setProc && !j.reload {
		return r, nil
	}
	return j.apply(ctx, env, r)
}

// decodeSysctl checks the decoded arguments and returns the task's job
// with its value normalised (booleans as 1 or 0), or the failed result
// Ansible gives for them, or the error for a missing value.
func decodeSysctl(a tasks.Values) (sysctlJob, *tasks.Result, error) {
	j := sysctlJob{state: a.Str("state"), fileArg: a.Str("sysctl_file"),
		reload: a.Bool("reload"), set: a.Bool("sysctl_set"), ignore: a.Bool("ignoreerrors")}
	fail := func(msg string) (sysctlJob, *tasks.Result, error) {
		r := shared.Fail(msg)
		return sysctlJob{}, &r, nil
	}
	if j.state == "present" && !a.Has("value") {
		return sysctlJob{}, nil, fmt.Errorf("state is present but all of the following are missing: value")
	}
	if a.Str("name") == "" {
		return fail("name cannot be blank")
	}
	if j.state == "present" && a.Str("value") == "" {
		return fail("value cannot be blank")
	}
	j.name = strings.TrimSpace(a.Str("name"))
	if a.Has("value") {
		j.value = tasks.ToText(a.Str("value"))
		switch l := strings.ToLower(j.value); {
		case sysctlBoolTrue[l]:
			j.value = "1"
		case sysctlBoolFalse[l]:
			j.value = "0"
		default:
			j.value = strings.TrimSpace(j.value)
		}
	}
	return j, nil, nil
}

// read fetches the running value and the file in one round trip; done is
// set, with the failed result, when that fails.
func (j *sysctlJob) read(ctx context.Context, env *tasks.Env) (r tasks.Result, done bool, err error) {
	script := fmt.Sprintf("f=%s\nname=%s\n%s%s", shared.ShPath(j.fileArg), shared.Q(j.name), sysctlReadScript, shared.ReadLinesScript)
	// Direct: sysctl and cat, which it starts, never outlive it, so its
	// answer needs no copy through a file.
	res, err := env.Conn.Run(ctx, transport.Cmd{Script: script, Direct: true})
	if err != nil {
		return tasks.Result{}, true, err
	}
	j.v, j.content = shared.SplitContent(res.Stdout)
	if j.v["fail"] != "" {
		return shared.Fail(j.v["fail"]), true, nil
	}
	if res.ExitCode != 0 || j.v["f"] == "" {
		return shared.Fail(shared.ScriptError(res)), true, nil
	}
	j.file = j.v["f"]
	j.proc, j.procOK = j.v["proc"]
	return tasks.Result{}, false, nil
}

// plan decides, without I/O, whether the task changes anything, whether
// it writes the file (as rewrite gives it) and whether it sets the
// running value.
func (j *sysctlJob) plan() {
	fileVal := j.rewrite()
	switch {
	case fileVal == nil && j.state == "present":
		j.changed, j.writeFile = true, true
	case fileVal == nil:
	case *fileVal != "" && j.state == "absent":
		j.changed, j.writeFile = true, true
	case *fileVal != j.value:
		j.changed, j.writeFile = true, true
	case j.reload:
		j.changed = !j.procOK || !sysctlSame(j.proc, j.value)
	}
	if j.set && j.state == "present" {
		if !j.procOK {
			j.changed = true
		} else if !sysctlSame(j.proc, j.value) {
			j.changed, j.setProc = true, true
		}
	}
}

// rewrite sets j.fixed to the file's lines as Ansible rewrites them (each
// key once, the parameter set or dropped) and returns the parameter's
// last value in the file, nil when it has none.
func (j *sysctlJob) rewrite() *string {
	var fileVal *string
	checked := map[string]bool{}
	for _, raw := range shared.SplitLinesKeep(j.content) {
		line := strings.TrimSpace(raw)
		if line == "" || sysctlComment.MatchString(line) || !strings.Contains(line, "=") {
			j.fixed = append(j.fixed, line)
			continue
		}
		k, val, _ := strings.Cut(line, "=")
		k, val = strings.TrimSpace(k), strings.TrimSpace(val)
		if k == j.name {
			x := val
			fileVal = &x
		}
		if checked[k] {
			continue
		}
		checked[k] = true
		if k != j.name {
			j.fixed = append(j.fixed, k+"="+val)
		} else if j.state == "present" {
			j.fixed = append(j.fixed, k+"="+j.value)
		}
	}
	if !checked[j.name] && j.state == "present" {
		j.fixed = append(j.fixed, j.name+"="+j.value)
	}
	return fileVal
}

// sysctlSame reports whether two values are equal once their whitespace
// is collapsed.
func sysctlSame(a, b string) bool {
	return strings.Join(strings.Fields(a), " ") == strings.Join(strings.Fields(b), " ")
}

// write replaces the file by the rewritten lines; done is set, with the
// failed result, when the host refused it.
func (j *sysctlJob) write(ctx context.Context, env *tasks.Env) (r tasks.Result, done bool, err error) {
	var b strings.Builder
	for _, l := range j.fixed {
		b.WriteString(strings.TrimSpace(l) + "\n")
	}
	msg, _, err := shared.WriteText(ctx, env, j.file, b.String(), j.content, j.v["exists"] == "1", "")
	if err != nil {
		return tasks.Result{}, true, err
	}
	if msg != "" {
		return shared.Fail(msg), true, nil
	}
	return tasks.Result{}, false, nil
}

// apply sets the running value and reloads the file, as planned and
// asked, in one round trip, and returns r, or the failed result with
// sysctl's error.
func (j *sysctlJob) apply(ctx context.Context, env *tasks.Env, r tasks.Result) (tasks.Result, error) {
	script := fmt.Sprintf("%sf=%s\nname=%s\nvalue=%s\nset=%s\nreload=%s\nignore=%s\n%s", shared.SysFuncs, shared.Q(j.file), shared.Q(j.name), shared.Q(j.value),
		shared.BoolFlag(j.setProc), shared.BoolFlag(j.reload), shared.BoolFlag(j.ignore), sysctlApplyScript)
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	av, _, msg := shared.Tailed(res.Stdout)
	if av["fail"] != "" {
		return shared.Fail(msg), nil
	}
	if res.ExitCode != 0 || av["applied"] != "1" {
		return shared.Fail(shared.ScriptError(res)), nil
	}
	return r, nil
}

func (sysctlModule) Spec() *tasks.Spec { return sysctlArgs }
