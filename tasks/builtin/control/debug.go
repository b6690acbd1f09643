package control

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
)

// debugModule prints a message or a variable's value; it runs on the
// controller and never reaches the host.
type debugModule struct{}

var _ tasks.Module = (*debugModule)(nil)

var debugArgs = &tasks.Spec{Module: "debug", ValidArgs: true, Params: []tasks.Param{
	{Name: "msg", Kind: tasks.Raw},
	{Name: "var", Kind: tasks.Raw, Marked: true},
	{Name: "verbosity", Kind: tasks.Int, Default: 0},
}}

// Run returns msg (default "Hello world!") or {var: value}, shown
// without -v, as Ansible's debug always is.
func (m debugModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	res, err := m.run(ctx, env, args)
	// Its one refusal ('msg' and 'var' together) comes before Ansible's
	// debug marks its result to be shown.
	res.Show = !res.Failed
	return res, err
}

func (debugModule) run(_ context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := debugArgs.DecodeFor(env.Action, args)
	if err != nil {
		return tasks.Result{}, err
	}
	// As Ansible's debug, given means present, None included (the
	// argument spec would drop a None).
	_, hasMsg := args["msg"]
	_, hasVar := args["var"]
	if hasMsg && hasVar {
		return tasks.Result{Failed: true, Msg: "'msg' and 'var' are incompatible options", Data: map[string]any{}}, nil
	}
	data := map[string]any{}
	if a.Int("verbosity") > env.Verbosity {
		data["skipped_reason"] = "Verbosity threshold not met."
		return tasks.Result{Skipped: true, Data: data}, nil
	}
	res := tasks.Result{Data: data}
	switch {
	case hasMsg:
		m := a["msg"]
		if text, isText := tasks.Text(m); isText {
			res.Msg = text
			if text == "" {
				// An empty message is still the result's msg.
				data["msg"] = ""
			}
			break
		}
		// Non-string messages (None too) are kept as data; the engine
		// shows msg.
		data["msg"] = m
		b, _ := json.Marshal(m)
		res.Msg = string(b)
	case hasVar:
		v := a["var"]
		name, isStr := tasks.Text(v)
		var val any = "VARIABLE IS NOT DEFINED!"
		if tasks.IsMarked(v) {
			// A marked name (it came from a host) is never rendered: as
			// Ansible's debug, whose rendering gives it back unchanged,
			// then gives back "{{" + it + "}}" unchanged.
			val = tasks.Keep(v, "{{"+name+"}}")
		} else if isStr && env.Template != nil {
			// As Ansible's debug: the variable is rendered as the
			// template "{{ var }}" (so d.index shows "1", n shows 5); an
			// undefined variable is shown as such; any other error fails
			// the task.
			text := name
			if !strings.Contains(name, "{{") {
				text = "{{" + name + "}}"
			}
			got, err := env.Template(text)
			var undef *expr.UndefinedError
			switch {
			case err == nil:
				val = got
			case !errors.As(err, &undef):
				// Raised by Ansible's debug action: the task fails with
				// the template's error, and no changed; a Python
				// exception (a filter's) as the worker reports it.
				if class, msg, ok := expr.PythonException(err); ok {
					return tasks.Result{}, &tasks.ActionError{Msg: msg, Exception: class + ": " + msg}
				}
				return tasks.Result{}, &tasks.ActionError{Msg: expr.TemplateMessage(err)}
			}
		} else if v == nil {
			// None renders to itself, which Ansible's debug takes for
			// undefined, under the key None (JSON's null).
			name = "null"
		} else if !isStr {
			// A list or dict was given (already templated): it is its own
			// value, shown under its Python type's name.
			val = v
			name = pyTypeName(v)
		}
		data[name] = val
	default:
		res.Msg = "Hello world!"
	}
	return res, nil
}

func pyTypeName(v any) string {
	switch v.(type) {
	case []any:
		return "<class 'list'>"
	case map[string]any:
		return "<class 'dict'>"
	}
	return "<class 'str'>"
}

func (debugModule) Spec() *tasks.Spec { return debugArgs }
