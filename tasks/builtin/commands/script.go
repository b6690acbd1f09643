package commands

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
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

// Run sends and runs the script.
func (scriptModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := scriptArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	failed := func(msg string) (tasks.Result, error) {
		return tasks.Result{Failed: true, Msg: msg, Data: map[string]any{}}, nil
	}
	raw := strings.TrimSpace(a.Str("_raw_params"))
	if raw == "" {
		raw = strings.TrimSpace(a.Str("cmd"))
	}
	chdir := a.Str("chdir")
	if chdir != "" && !strings.HasPrefix(chdir, "/") {
		return failed(fmt.Sprintf("chdir %s must be an absolute path for a Unix-aware remote node", chdir))
	}
	parts, err := shared.ShlexSplit(raw)
	if err != nil || len(parts) == 0 {
		return failed("script: no script given")
	}
	local, err := env.FindFile("files", parts[0])
	if err != nil {
		return failed(err.Error())
	}
	if err := env.Sandbox.CheckRead(local); err != nil {
		return tasks.Result{}, err
	}
	body, err := os.ReadFile(local)
	if err != nil {
		return failed(err.Error())
	}
	rest := strings.TrimSpace(strings.Replace(raw, parts[0], "", 1))

	var s strings.Builder
	s.WriteString(gateScript(a, "_t_exists", false, env.Check))
	if !env.Check {
		s.WriteString(shared.ShAssign([][2]string{{"base", path.Base(local)}, {"chdir", chdir},
			{"has_exe", shared.BoolFlag(a.Has("executable"))}, {"exe", a.Str("executable")}, {"rest", rest}}))
		s.WriteString(scriptRunText)
	}
	var stdin *strings.Reader
	if !env.Check {
		stdin = strings.NewReader(string(body))
	}
	out, err := shared.Run(ctx, env, s.String(), shared.NilReader(stdin))
	if err != nil {
		return tasks.Result{}, err
	}
	first, stdout, _ := strings.Cut(string(out.Stdout), "\n")
	switch strings.TrimPrefix(first, "tender=") {
	case "creates":
		return tasks.Result{Skipped: true, Msg: a.Str("creates") + " exists, matching creates option", Data: map[string]any{}}, nil
	case "removes":
		return tasks.Result{Skipped: true, Msg: a.Str("removes") + " does not exist, matching removes option", Data: map[string]any{}}, nil
	case "check":
		if a.Has("creates") || a.Has("removes") {
			return tasks.Result{Changed: true, Data: map[string]any{}}, nil
		}
		return tasks.Result{Skipped: true, Msg: "Check mode is not supported for this task.", Data: map[string]any{}}, nil
	case "run":
	default:
		return tasks.Result{Failed: true, Msg: shared.ScriptError(out), RC: out.ExitCode, Data: map[string]any{}}, nil
	}
	stderr := string(out.Stderr)
	res := tasks.Result{Changed: true, RC: out.ExitCode, Stdout: stdout, Stderr: stderr, Data: map[string]any{
		"rc": out.ExitCode, "stdout": stdout, "stdout_lines": shared.Lines(stdout),
		"stderr": stderr, "stderr_lines": shared.Lines(stderr),
	}}
	if out.ExitCode != 0 {
		res.Failed, res.Msg = true, "non-zero return code"
	}
	return res, nil
}

// scriptRunText sends and runs the script's file (script_run.sh).
//
//go:embed script_run.sh
var scriptRunText string

func (scriptModule) Spec() *tasks.Spec { return scriptArgs }
