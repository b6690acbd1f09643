package system

import (
	"context"
	_ "embed"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/shlex"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// atModule queues or removes a job of at as ansible.posix's at module
// does: a command (written to a temporary file) or a script file is
// queued to run count units from now (at -f FILE now + COUNT UNITS);
// unique leaves it alone when a queued job already holds its text;
// state=absent removes every queued job that holds it (atq, at -c, at
// -r). Like Ansible's, it has no check mode: a task in check mode is
// skipped. One round trip.
type atModule struct{}

var _ tasks.Module = (*atModule)(nil)

var atArgs = &tasks.Spec{
	Module: "at",
	Params: []tasks.Param{
		{Name: "command"},
		{Name: "script_file"},
		{Name: "count", Kind: tasks.Int},
		{Name: "units", Choices: []string{"minutes", "hours", "days", "weeks"}},
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
		{Name: "unique", Kind: tasks.Bool, Default: false},
	},
	MutuallyExclusive: [][]string{{"command", "script_file"}},
	RequiredOneOf:     [][]string{{"command", "script_file"}},
}

// atScript queues or removes the job (see its header for its inputs and
// verdict).
//
//go:embed at.sh
var atScript string

// atNoCheck is how a task of at in check mode is skipped: the module
// does not support check mode.
const atNoCheck = "remote module (ansible.posix.at) does not support check mode"

// Run queues or removes the job.
func (atModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := atArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	if env.Check {
		return tasks.Result{Skipped: true, Msg: atNoCheck, Data: map[string]any{}}, nil
	}
	state, units, count := a.Str("state"), a.Str("units"), ""
	if a.Has("count") {
		count = strconv.Itoa(a.Int("count"))
	}
	hasCmd := a.Has("command") && a.Str("command") != ""
	var words []string
	if !hasCmd {
		w, err := shlex.Split(a.Str("script_file"))
		if err != nil {
			return shared.Fail(err.Error()), nil
		}
		for _, x := range w {
			words = append(words, shared.ExpandWord(x))
		}
	}
	script := shared.SysFuncs + shared.ShFuncs + shared.ShAssign([][2]string{
		{"state", state}, {"count", count}, {"units", units}, {"unique", shared.BoolFlag(a.Bool("unique"))},
		{"script_file", a.Str("script_file")}, {"command", a.Str("command")}, {"hascmd", shared.BoolFlag(hasCmd)},
	}) + shared.SetWords(words) + atScript
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, out, errOut := shared.Tailed(res.Stdout)
	switch {
	case v["fail"] == "rc":
		return atCommandFailure(v, count, units, out, errOut), nil
	case v["fail"] != "":
		return shared.Fail(v["fail"]), nil
	case v["pyerr"] != "":
		return shared.Fail(shared.OSError(v["pyerr"], v["sf"])), nil
	case res.ExitCode != 0 || v["changed"] == "":
		return shared.Fail(shared.ScriptError(res)), nil
	}
	data := map[string]any{"state": state}
	changed := v["changed"] == "1"
	if state == "present" && changed {
		data["script_file"], data["count"], data["units"] = v["sf"], a.Int("count"), units
	}
	return tasks.Result{Changed: changed, Data: data}, nil
}

// Spec is the module's argument specification.
func (atModule) Spec() *tasks.Spec { return atArgs }

// atCommandFailure is the module's failure when atq or at failed: the
// command line, its exit status and output, and its stderr as msg.
func atCommandFailure(v shared.Verdict, count, units, out, errOut string) tasks.Result {
	at := v["at_bin"]
	var argv []string
	switch v["what"] {
	case "atq":
		argv = []string{v["atq_bin"]}
	case "c", "r":
		argv = []string{at, "-" + v["what"], v["job"]}
	default:
		argv = append([]string{at, "-f"}, atWords(v)...)
		argv = append(argv, "now", "+", count, units)
	}
	rc, _ := strconv.Atoi(v["rc"])
	data := map[string]any{"cmd": shared.PyCleanArgs(argv), "rc": rc, "stdout": out, "stderr": errOut,
		"stdout_lines": shared.Lines(out), "stderr_lines": shared.Lines(errOut)}
	return tasks.Result{Failed: true, Msg: shared.PySanitize(strings.TrimRight(errOut, " \t\n\r\v\f")), Data: data}
}

// atWords are the words of the script file's name in at's command line,
// as the host expanded them (the script prints them joined by \x1f).
func atWords(v shared.Verdict) []string {
	if v["argv"] == "" {
		return nil
	}
	return strings.Split(v["argv"], "\x1f")
}
