package commands

import (
	"context"
	_ "embed"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// makeModule runs make in a directory as community.general 6.6.2's make
// module does: make TARGET -q first, and only when the target is not up
// to date (a non-zero status) make TARGET itself, so a second run changes
// nothing; in check mode the -q run alone tells whether it would change.
// Like Ansible's run_command, every word of the command line is expanded
// on the host ($VAR, a leading ~); the command reported is the words as
// given, quoted. One round trip.
type makeModule struct{}

var _ tasks.Module = makeModule{}

var makeArgs = &tasks.Spec{
	Module: "make",
	Params: []tasks.Param{
		{Name: "target"},
		{Name: "params", Kind: tasks.Dict},
		{Name: "chdir", Kind: tasks.Path, Required: true},
		{Name: "file", Kind: tasks.Path},
		{Name: "make", Kind: tasks.Path},
		{Name: "jobs", Kind: tasks.Int},
	},
}

// makeScript runs make -q and, when needed, make (see its header).
//
//go:embed make.sh
var makeScript string

// Spec returns make's parameters.
func (makeModule) Spec() *tasks.Spec { return makeArgs }

// makeJob is a decoded make task.
type makeJob struct {
	a      tasks.Values
	params []string // NAME=VALUE, in the order given
}

// newMakeJob decodes args.
func newMakeJob(args tasks.Args) (makeJob, error) {
	a, err := makeArgs.Decode(args)
	if err != nil {
		return makeJob{}, err
	}
	j := makeJob{a: a}
	if a.Has("params") {
		m := a.Dict("params")
		for _, k := range pydict.Keys(m) {
			j.params = append(j.params, k+"="+shared.PyToStr(m[k]))
		}
	}
	return j, nil
}

// words are the arguments after the program, as the module builds them
// (-j JOBS, -f FILE, the target, the parameters), with file standing for
// the makefile's path; a target not given is no word.
func (j makeJob) words(file string) []string {
	var w []string
	if j.a.Has("jobs") {
		w = append(w, "-j", strconv.Itoa(j.a.Int("jobs")))
	}
	if j.a.Has("file") {
		w = append(w, "-f", file)
	}
	if j.a.Has("target") {
		w = append(w, j.a.Str("target"))
	}
	return append(w, j.params...)
}

// script is the task's script: every argument a shell word that expands
// on the host as run_command expands it.
func (j makeJob) script(check bool) string {
	var words []string
	for _, w := range j.words(j.a.Str("file")) {
		words = append(words, shared.ExpandWord(w))
	}
	mk := "''"
	if j.a.Has("make") {
		mk = shared.ShPath(j.a.Str("make"))
	}
	return shared.SysFuncs + shared.ShAssign([][2]string{
		{"check", shared.BoolFlag(check)}, {"usefile", shared.BoolFlag(j.a.Has("file"))},
	}) + "make=" + mk + "\nchdir=" + shared.ShPath(j.a.Str("chdir")) + "\nfile=" + shared.ShPath(j.a.Str("file")) +
		"\n" + shared.SetWords(words) + makeScript
}

// Run makes the target when it is not up to date.
func (makeModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	j, err := newMakeJob(args)
	if err != nil {
		return tasks.Result{}, err
	}
	res, err := shared.Run(ctx, env, j.script(env.Check), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, out, errOut := shared.Tailed(res.Stdout)
	if v["nomake"] == "" && v["noexec"] == "" && v["qrc"] == "" {
		return shared.Fail(shared.ScriptError(res)), nil
	}
	return j.result(v, out, errOut, env.Check), nil
}

// hostArgs are the arguments as the host expanded them (a0=... printed
// by the script).
func hostArgs(v shared.Verdict) []string {
	n, _ := strconv.Atoi(v["argc"])
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, unhex(v["a"+strconv.Itoa(i)]))
	}
	return out
}

// withOutput adds stdout and stderr, with their _lines lists, to d.
func withOutput(d map[string]any, out, errOut string) map[string]any {
	d["stdout"], d["stdout_lines"] = out, shared.Lines(out)
	d["stderr"], d["stderr_lines"] = errOut, shared.Lines(errOut)
	return d
}

// result makes the task's result from the script's verdict and the last
// run's output: make not found, a program that cannot start, a make that
// failed (cmd, rc, stdout, stderr, msg as run_command's check_rc reports
// them), or the module's return values.
func (j makeJob) result(v shared.Verdict, out, errOut string, check bool) tasks.Result {
	if v["nomake"] != "" {
		return shared.Fail(`Failed to find required executable "make" in paths: ` + unhex(v["nomake"]))
	}
	mk := unhex(v["make"])
	argv := append([]string{mk}, hostArgs(v)...)
	if e := v["noexec"]; e != "" {
		msg := shared.OSErrorBytes(shared.EACCES, mk)
		if e == "2" {
			msg = shared.OSErrorBytes(shared.ENOENT, mk)
		}
		rc, _ := strconv.Atoi(e)
		d := withOutput(map[string]any{"cmd": shared.PyCleanArgs(append(argv, "-q")), "rc": rc}, "", "")
		return tasks.Result{Failed: true, Msg: msg, Data: d}
	}
	if rc := v["rc"]; rc != "" && rc != "0" {
		n, _ := strconv.Atoi(rc)
		msg := shared.PySanitize(pyRstrip(errOut))
		d := withOutput(map[string]any{"cmd": shared.PyCleanArgs(argv), "rc": n, "msg": msg}, out, errOut)
		return tasks.Result{Failed: true, Msg: msg, Data: d}
	}
	file := unhex(v["file"])
	quoted := []string{shared.Q(mk)}
	for _, w := range j.words(file) {
		quoted = append(quoted, shared.Q(w))
	}
	if !j.a.Has("target") {
		// the module quotes its None target as an empty word
		at := len(quoted) - len(j.params)
		quoted = append(quoted[:at], append([]string{"''"}, quoted[at:]...)...)
	}
	d := map[string]any{
		"chdir": unhex(v["chdir"]), "command": strings.Join(quoted, " "),
		"target": nil, "params": nil, "file": nil, "jobs": nil,
	}
	if j.a.Has("target") {
		d["target"] = j.a.Str("target")
	}
	if j.a.Has("params") {
		d["params"] = j.a.Dict("params")
	}
	if j.a.Has("file") {
		d["file"] = file
	}
	if j.a.Has("jobs") {
		d["jobs"] = j.a.Int("jobs")
	}
	trim := func(s string) string { return strings.TrimRight(s, "\r\n") }
	return tasks.Result{Changed: v["qrc"] != "0", Data: withOutput(d, trim(out), trim(errOut))}
}
