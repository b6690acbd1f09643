package control

import (
	"context"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// pingModule proves the host runs scripts: one round trip that echoes
// data back. data=crash fails as Ansible's ping does on purpose.
type pingModule struct{}

var _ tasks.Module = (*pingModule)(nil)

var pingArgs = &tasks.Spec{Module: "ping", Params: []tasks.Param{{Name: "data", Default: "pong"}}}

// Run pings.
func (pingModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := pingArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	data := a.Str("data")
	// printf is the shell's own: nothing is left behind to write on
	// stdout later, so the answer need not go through a file
	// (transport.Cmd.Direct).
	out, err := env.Conn.Run(ctx, transport.Cmd{Script: "printf '%s' " + shared.Q(data), Direct: true})
	if err != nil {
		return tasks.Result{}, err
	}
	if out.ExitCode != 0 || string(out.Stdout) != data {
		return tasks.Result{Failed: true, Msg: "MODULE FAILURE\nSee stdout/stderr for the exact error", RC: out.ExitCode,
			Data: map[string]any{"rc": out.ExitCode, "module_stdout": string(out.Stdout), "module_stderr": string(out.Stderr)}}, nil
	}
	if data == "crash" {
		return tasks.Result{Failed: true, Msg: "MODULE FAILURE\nSee stdout/stderr for the exact error", RC: 1,
			Data: map[string]any{"rc": 1, "module_stdout": "", "module_stderr": "Exception: boom\n"}}, nil
	}
	return tasks.Result{Data: map[string]any{"ping": data}}, nil
}

func (pingModule) Spec() *tasks.Spec { return pingArgs }
