package control

import (
	"context"

	"github.com/tender-sh/tender/tasks"
)

// failModule fails the task with msg.
type failModule struct{}

var _ tasks.Module = (*failModule)(nil)

var failArgs = &tasks.Spec{Module: "fail", ValidArgs: true, Params: []tasks.Param{{Name: "msg", Kind: tasks.Raw, Default: "Failed as requested from task"}}}

// Run always fails.
func (failModule) Run(_ context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := failArgs.DecodeFor(env.Action, args)
	if err != nil {
		return tasks.Result{}, err
	}
	// As Ansible's action: msg as given, a number or a list staying one.
	return tasks.Result{Failed: true, Msg: tasks.ToText(a["msg"]), Data: map[string]any{"msg": a["msg"]}}, nil
}

func (failModule) Spec() *tasks.Spec { return failArgs }
