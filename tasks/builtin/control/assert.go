package control

import (
	"context"
	"fmt"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
)

// assertModule evaluates its conditions with Env.Condition and fails on
// the first false one, reporting it as Ansible does (assertion,
// evaluated_to). Its that: reaches it untemplated (Traits.UntemplatedArg),
// as Ansible's assert reads it: a string is rendered first (it may name a
// list of conditions), then each condition is evaluated as when: is, so
// a condition that came from a host (marked) is refused.
type assertModule struct{}

var _ tasks.Module = (*assertModule)(nil)

var assertArgs = &tasks.Spec{Module: "assert", ValidArgs: true, Params: []tasks.Param{
	{Name: "that", Kind: tasks.List, Elements: tasks.Raw, Required: true, Marked: true},
	{Name: "fail_msg", Kind: tasks.Raw, Aliases: []string{"msg"}},
	{Name: "success_msg", Kind: tasks.Raw},
	{Name: "quiet", Kind: tasks.Bool, Default: false},
}}

// Run evaluates every condition in order.
func (assertModule) Run(_ context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	if env.Condition == nil || env.Template == nil {
		return tasks.Result{}, fmt.Errorf("assert: no expression evaluator")
	}
	that, given := args["that"]
	if !given {
		// Ansible's assert checks that before anything else.
		return tasks.Result{}, &tasks.ActionError{Msg: `conditional required in "that" string`}
	}
	if _, isText := tasks.Text(that); isText {
		// One string: rendered first, as it may be a template naming a
		// list of conditions.
		v, err := env.Template(that)
		if err != nil {
			// Raised by Ansible's action: no changed in the result.
			return tasks.Result{}, &tasks.ActionError{Msg: expr.ConditionMessage(tasks.ToText(that), err)}
		}
		that = v
	}
	switch that.(type) {
	case []any, nil:
	default:
		// One condition (a string may hold commas: it is not a comma
		// list; a boolean is its own answer), as Ansible's assert wraps
		// whatever is not a list.
		that = []any{that}
	}
	args = copyArgsMap(args)
	args["that"] = that
	a, err := assertArgs.DecodeFor(env.Action, args)
	if err != nil {
		return tasks.Result{}, err
	}
	for _, c := range a.List("that") {
		if s, isText := tasks.Text(c); c == nil || isText && s == "" {
			continue // an empty item of that holds, as an empty conditional does in Ansible
		}
		ok, err := env.Condition(c)
		if err != nil {
			// Raised by Ansible's action: no changed in the result.
			return tasks.Result{}, &tasks.ActionError{Msg: expr.ConditionMessage(tasks.ToText(c), err)}
		}
		if !ok {
			msg := "Assertion failed"
			if a.Has("fail_msg") {
				msg = tasks.ToText(a["fail_msg"])
			}
			// Shown as a passing one is (unless quiet): Ansible marks
			// the result before it evaluates.
			return tasks.Result{Failed: true, Msg: msg, Data: map[string]any{"assertion": c, "evaluated_to": false}, Show: !a.Bool("quiet")}, nil
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
