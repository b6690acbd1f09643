package commands

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"path"
	"strings"

	"github.com/tender-sh/tender/internal/shlex"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// scriptModule runs a controller-side script on the host, in one round
// trip: the script's bytes travel on stdin into a private temporary file
// that is run with the rest of the free-form text as its arguments (shell
// text, as in Ansible) and removed afterwards. creates, removes and chdir
// are decided in the same round trip.
type scriptModule struct{}

var _ tasks.Module = (*scriptModule)(nil)

var scriptArgs = &tasks.Spec{Module: "script", FreeForm: true, Params: []tasks.Param{
	{Name: "chdir"}, {Name: "creates"}, {Name: "removes"}, {Name: "executable"},
	{Name: "decrypt", Kind: tasks.Bool, Default: true}, {Name: "cmd"},
}}

// scriptJob is one script task: the controller file, its bytes, and
// the argument text that follows its name.
type scriptJob struct {
	a            tasks.Values
	local, chdir string
	rest         string // the arguments: shell text, as the author wrote it
	body         []byte
}

// Run sends and runs the script: the task decoded (the file found and
// read on the controller), one round trip that passes the gate and runs
// it, and the result built from its verdict.
func (scriptModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := scriptArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j, stop, err := decodeScript(env, a)
	if stop != nil || err != nil {
		return shared.EndWith(stop, err)
	}
	var stdin *strings.Reader
	if !env.Check {
		stdin = strings.NewReader(string(j.body))
	}
	// Before tender=run (script_run.sh prints it before the file runs)
	// only the gate's verdict: copied without a program on the host.
	out, err := env.Conn.Run(ctx, transport.Cmd{Script: j.script(env.Check), Stdin: shared.NilReader(stdin), LinesUntil: "tender=run"})
	if err != nil {
		return tasks.Result{}, err
	}
	return j.result(out), nil
}

// decodeScript finds the script the free form (or cmd) names among the
// controller's files and reads it. A relative chdir, no script or one
// that cannot be found or read are failures; a file the sandbox denies
// is an error.
func decodeScript(env *tasks.Env, a tasks.Values) (scriptJob, *tasks.Result, error) {
	j := scriptJob{a: a, chdir: a.Str("chdir")}
	failed := func(msg string) (scriptJob, *tasks.Result, error) {
		r := shared.Fail(msg)
		return j, &r, nil
	}
	raw := strings.TrimSpace(a.Str("_raw_params"))
	if raw == "" {
		raw = strings.TrimSpace(a.Str("cmd"))
	}
	if j.chdir != "" && !strings.HasPrefix(j.chdir, "/") {
		return failed(fmt.Sprintf("chdir %s must be an absolute path for a Unix-aware remote node", j.chdir))
	}
	parts, err := shlex.Split(raw)
	if err != nil || len(parts) == 0 {
		return failed("script: no script given")
	}
	if j.local, err = env.FindFile("files", parts[0]); err != nil {
		return failed(err.Error())
	}
	if err := env.Sandbox.CheckRead(j.local); err != nil {
		return j, nil, err
	}
	if j.body, err = env.Sandbox.ReadFile(j.local); err != nil {
		return failed(err.Error())
	}
	// A vault-encrypted script is decrypted on the controller before it
	// is sent (decrypt, on by default), as Ansible's script action does;
	// with decrypt off it is sent as it is.
	if a.Bool("decrypt") && bytes.HasPrefix(j.body, []byte("$ANSIBLE_VAULT;")) {
		if env.Decrypt == nil {
			return failed("A vault password or secret must be specified to decrypt " + j.local)
		}
		if j.body, err = env.Decrypt(j.body); err != nil {
			return failed(fmt.Sprintf("%v on %s", err, j.local))
		}
	}
	j.rest = strings.TrimSpace(strings.Replace(raw, parts[0], "", 1))
	return j, nil, nil
}

// script is the gate (creates, removes, check mode) followed, outside
// check mode, by script_run.sh.
func (j scriptJob) script(check bool) string {
	s := gateScript(j.a, "_t_exists", false, check)
	if !check {
		s += shared.ShAssign([][2]string{{"base", path.Base(j.local)}, {"chdir", j.chdir},
			{"has_exe", shared.BoolFlag(j.a.Has("executable"))}, {"exe", j.a.Str("executable")}, {"rest", j.rest}}) + scriptRunText
	}
	return s
}

// result is what Ansible's script returns for the verdict: skipped for
// creates/removes, check mode's answer, or the script's rc and output.
func (j scriptJob) result(out transport.Result) tasks.Result {
	a := j.a
	first, stdout, _ := strings.Cut(string(out.Stdout), "\n")
	switch strings.TrimPrefix(first, "tender=") {
	case "creates":
		return tasks.Result{Skipped: true, Msg: a.Str("creates") + " exists, matching creates option", Data: map[string]any{}}
	case "removes":
		return tasks.Result{Skipped: true, Msg: a.Str("removes") + " does not exist, matching removes option", Data: map[string]any{}}
	case "check":
		if a.Has("creates") || a.Has("removes") {
			return tasks.Result{Changed: true, Data: map[string]any{}}
		}
		return tasks.Result{Skipped: true, Msg: "Check mode is not supported for this task.", Data: map[string]any{}}
	case "run":
	default:
		return tasks.Result{Failed: true, Msg: shared.ScriptError(out), RC: out.ExitCode, Data: map[string]any{}}
	}
	stderr := string(out.Stderr)
	res := tasks.Result{Changed: true, RC: out.ExitCode, Stdout: stdout, Stderr: stderr, Data: map[string]any{
		"rc": out.ExitCode, "stdout": stdout, "stdout_lines": shared.Lines(stdout),
		"stderr": stderr, "stderr_lines": shared.Lines(stderr),
	}}
	if out.ExitCode != 0 {
		res.Failed, res.Msg = true, "non-zero return code"
	}
	return res
}

// scriptRunText sends and runs the script's file (script_run.sh).
//
//go:embed script_run.sh
var scriptRunText string

func (scriptModule) Spec() *tasks.Spec { return scriptArgs }
