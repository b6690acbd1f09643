package control

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// validateArgumentSpecModule is ansible-core 2.14's validate_argument_spec
// action: it checks provided_arguments, and for each option not among
// them the task's variable of the option's name, against argument_spec,
// on the controller (no round trip). It is what a role's
// meta/argument_specs.yml runs before the role's tasks.
type validateArgumentSpecModule struct{}

var _ tasks.Module = validateArgumentSpecModule{}

var validateArgumentSpecArgs = &tasks.Spec{Module: "validate_argument_spec", Params: []tasks.Param{
	{Name: "argument_spec", Kind: tasks.Dict, Required: true},
	{Name: "provided_arguments", Kind: tasks.Dict},
	{Name: "validate_args_context", Kind: tasks.Raw},
}, Other: "argument_spec maps each option to its attributes (type, required, default, choices, aliases, " +
	"elements, options, apply_defaults, no_log, and beside options mutually_exclusive, required_together, " +
	"required_one_of, required_if, required_by); a fallback and types that are not ansible-core's are refused. " +
	"other arguments are ignored, as ansible-core's action ignores them"}

// Spec shows the arguments for tender doc. Run reads them itself: the
// action's messages for bad arguments are its own, not Decode's.
func (validateArgumentSpecModule) Spec() *tasks.Spec { return validateArgumentSpecArgs }

// Run validates, as ansible-core's action does: the arguments to check are
// the task's variables named as top-level options (aliases are not looked
// up), overridden by provided_arguments. A variable is read through
// Env.Eval of its name, so only names that are Jinja2 identifiers can
// come from variables; an option whose variable is undefined is absent,
// one whose value fails to render fails the task (ansible-core templates
// them too). A spec tender refuses, or bad arguments to the action, fail
// the task with an error.
func (validateArgumentSpecModule) Run(_ context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	specArg, ok := args["argument_spec"]
	if !ok {
		return tasks.Result{}, fmt.Errorf(`"argument_spec" arg is required in args: %s`, shared.PyRepr(map[string]any(args)))
	}
	spec, ok := specArg.(map[string]any)
	if !ok {
		return tasks.Result{}, fmt.Errorf("Incorrect type for argument_spec, expected dict and got %s", shared.PyTypeOf(specArg))
	}
	provided := map[string]any{}
	if p, given := args["provided_arguments"]; given {
		if provided, ok = p.(map[string]any); !ok {
			return tasks.Result{}, fmt.Errorf("Incorrect type for provided_arguments, expected dict and got %s", shared.PyTypeOf(p))
		}
	}
	params, err := argsFromVars(env, spec)
	if err != nil {
		return tasks.Result{}, err
	}
	for k, v := range provided {
		params[k] = v
	}
	var vctx any = map[string]any{}
	if c, given := args["validate_args_context"]; given {
		vctx = c
	}
	data, err := validateArgSpec(env.Sandbox, spec, params, vctx)
	if err != nil {
		return tasks.Result{}, err
	}
	failed, _ := data["failed"].(bool)
	msg, _ := data["msg"].(string)
	for _, k := range []string{"failed", "changed", "msg"} {
		delete(data, k)
	}
	return tasks.Result{Failed: failed, Msg: msg, Data: data}, nil
}

// validateArgSpec validates params (the values to check: provided
// arguments over variables, already merged) against spec (a role entry
// point's options, or a task's argument_spec) and returns what ansible-core
// 2.14's validate_argument_spec action returns: on success changed false,
// msg "The arg spec validation passed" and validate_args_context (argsContext,
// echoed); on failure also failed true, msg "Validation of arguments
// failed:\n" and the errors a line each, argument_errors (the list) and
// argument_spec_data (spec). An error return is a spec tender refuses (see
// checkArgSpec); the task fails with it. The sandbox bounds what a path
// option's expansions read (checkArgSpecUnder).
func validateArgSpec(sandbox *sandbox.Policy, spec, params map[string]any, argsContext any) (map[string]any, error) {
	_, errs, err := checkArgSpecUnder(sandbox, spec, params)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"changed": false, "validate_args_context": argsContext}
	if len(errs) == 0 {
		out["msg"] = "The arg spec validation passed"
		return out, nil
	}
	list := make([]any, len(errs))
	for i, e := range errs {
		list[i] = e
	}
	out["failed"] = true
	out["msg"] = "Validation of arguments failed:\n" + strings.Join(errs, "\n")
	out["argument_errors"] = list
	out["argument_spec_data"] = spec
	return out, nil
}

// jinjaName is a name Env.Eval reads as a variable.
var jinjaName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// jinjaWords are names that Jinja2 reads as something else than a
// variable.
var jinjaWords = map[string]bool{"true": true, "false": true, "none": true, "True": true, "False": true,
	"None": true, "and": true, "or": true, "not": true, "in": true, "is": true, "if": true, "else": true}

// argsFromVars reads, for each top-level option of spec, the task's
// variable of that name, when it is defined.
func argsFromVars(env *tasks.Env, spec map[string]any) (map[string]any, error) {
	out := map[string]any{}
	if env == nil || env.Eval == nil {
		return out, nil
	}
	for _, name := range shared.SortedMapKeys(spec) {
		if !jinjaName.MatchString(name) || jinjaWords[name] {
			continue
		}
		v, err := env.Eval(name)
		var undef *expr.UndefinedError
		switch {
		case errors.As(err, &undef) && undef.Name == name:
			continue
		case err != nil:
			return nil, err
		}
		out[name] = v
	}
	return out, nil
}
