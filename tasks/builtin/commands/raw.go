package commands

import (
	"context"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// rawModule runs its free-form text as given, with no quoting and no
// checks: /bin/sh (or executable) reads it as a script. It always reports
// changed, and is skipped in check mode, as Ansible's raw is.
type rawModule struct{}

var _ tasks.Module = (*rawModule)(nil)

var rawArgs = &tasks.Spec{Module: "raw", FreeForm: true, Params: []tasks.Param{{Name: "executable"}}}

// Run runs the text in one round trip.
func (rawModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := rawArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	if env.Check {
		return tasks.Result{Skipped: true, Data: map[string]any{}}, nil
	}
	script := a.Str("_raw_params")
	if a.Has("executable") {
		script = "exec " + shared.Q(a.Str("executable")) + " -c " + shared.Q(script)
	}
	out, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	stdout, stderr := string(out.Stdout), string(out.Stderr)
	res := tasks.Result{Changed: true, RC: out.ExitCode, Stdout: stdout, Stderr: stderr, Data: map[string]any{
		"rc": out.ExitCode, "stdout": stdout, "stdout_lines": shared.Lines(stdout),
		"stderr": stderr, "stderr_lines": shared.Lines(stderr),
	}}
	if out.ExitCode != 0 {
		res.Failed, res.Msg = true, "non-zero return code"
	}
	return res, nil
}

func (rawModule) Spec() *tasks.Spec { return rawArgs }
