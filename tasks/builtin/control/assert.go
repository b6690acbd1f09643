package control

import (
	"context"
	"fmt"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// assertModule evaluates its conditions with Env.Eval and fails on the
// first false one, reporting it as Ansible does (assertion, evaluated_to).
type assertModule struct{}

var _ tasks.Module = (*assertModule)(nil)

var assertArgs = &tasks.Spec{Module: "assert", Params: []tasks.Param{
	{Name: "that", Kind: tasks.List, Elements: tasks.Raw, Required: true},
	{Name: "fail_msg", Kind: tasks.Raw, Aliases: []string{"msg"}},
	{Name: "success_msg", Kind: tasks.Raw},
	{Name: "quiet", Kind: tasks.Bool, Default: false},
}}

// Run evaluates every condition in order.
func (assertModule) Run(_ context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	switch that := args["that"].(type) {
	case []any, nil:
	default:
		// One condition (a string may hold commas: it is not a comma
		// list; a boolean is its own answer), as Ansible's assert wraps
		// whatever is not a list.
		args = copyArgsMap(args)
		args["that"] = []any{that}
	}
	a, err := assertArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	for _, c := range a.List("that") {
		var ok bool
		switch cond := c.(type) {
		case bool:
			ok = cond
		case nil:
			ok = true // an empty item of that holds, as in Ansible
		default:
			expr := tasks.ToText(cond)
			if env.Eval == nil {
				return tasks.Result{}, fmt.Errorf("assert: no expression evaluator")
			}
			v, err := env.Eval(expr)
			if err != nil {
				return tasks.Result{Failed: true, Data: map[string]any{}, Msg: fmt.Sprintf("The conditional check '%s' failed. The error was: %v", expr, err)}, nil
			}
			ok = shared.Truthy(v)
		}
		if !ok {
			msg := "Assertion failed"
			if a.Has("fail_msg") {
				msg = tasks.ToText(a["fail_msg"])
			}
			return tasks.Result{Failed: true, Msg: msg, Data: map[string]any{"assertion": c, "evaluated_to": false}}, nil
		}
	}
	msg := "All assertions passed"
	if a.Has("success_msg") {
		msg = tasks.ToText(a["success_msg"])
	}
	// Unless quiet, the passing result is shown without -v, as Ansible's
	// assert asks (_ansible_verbose_always).
	return tasks.Result{Msg: msg, Data: map[string]any{}, Show: !a.Bool("quiet")}, nil
}

func copyArgsMap(a tasks.Args) tasks.Args {
	out := make(tasks.Args, len(a))
	for k, v := range a {
		out[k] = v
	}
	return out
}

func (assertModule) Spec() *tasks.Spec { return assertArgs }
