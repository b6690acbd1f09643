package tasks

import (
	"errors"

	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/playbooks/expr"
)

// ScopeEnv returns an Env whose Eval, Condition, Template, Render and
// RenderFile work in scope (the engine fills in the rest): a module's way
// back into its task's scope, each honouring the marks of args, the
// arguments the module is given. A module that turned a marked argument
// into a plain string (a typed Decode, a copy) and hands that string back
// to be evaluated finds it refused all the same: the strings marked in
// args are remembered, and a plain string equal to one of them is taken
// for marked.
func ScopeEnv(args Args, scope expr.Scope) *Env {
	marked := markedStrings(args)
	taint := func(v any) any {
		if s, ok := v.(string); ok && marked[s] {
			return yaml11.Unsafe(s)
		}
		return v
	}
	render := func(parse func() (*expr.Template, error), vars map[string]any) (string, error) {
		tpl, err := parse()
		if err != nil {
			return "", err
		}
		in := scope
		if vars != nil {
			in = expr.WithVars(scope, vars)
		}
		v, err := tpl.Render(in)
		return expr.Str(v), err
	}
	return &Env{
		Eval: func(src string) (any, error) {
			if marked[src] {
				return nil, errEvalMarked
			}
			e, err := expr.Parse(src)
			if err != nil {
				return nil, err
			}
			return e.Eval(scope)
		},
		Condition: func(cond any) (bool, error) { return expr.Condition(taint(cond), scope) },
		Template: func(v any) (any, error) {
			switch x := taint(v).(type) {
			case yaml11.Unsafe:
				return x, nil
			case string:
				return expr.Render(x, scope)
			default:
				return expr.RenderDeep(x, scope)
			}
		},
		Render: func(text string) (string, error) {
			if marked[text] {
				return text, nil
			}
			return render(func() (*expr.Template, error) { return expr.ParseFileTemplate(text) }, nil)
		},
		RenderFile: func(text string, f TemplateFile) (string, error) {
			if marked[text] {
				return text, nil
			}
			return render(func() (*expr.Template, error) { return expr.ParseFileTemplateSyntax(text, f.Path, f.Syntax) }, f.Vars)
		},
	}
}

// TemplateFile is a template file Env.RenderFile renders: where it is
// (its includes look beside it), the variables over the task's scope
// (the template's own, expr.TemplateVars) and how it is read (its
// markers, trim_blocks and lstrip_blocks).
type TemplateFile struct {
	Path   string
	Vars   map[string]any
	Syntax expr.FileSyntax
}

// errEvalMarked is Eval's answer to text that is marked.
var errEvalMarked = errors.New("the expression is marked as unsafe (it came from a host, a lookup or !unsafe), and cannot be evaluated")

// markedStrings collects the marked strings in args (their lists and
// dicts included).
func markedStrings(args Args) map[string]bool {
	var out map[string]bool
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 100 {
			return
		}
		switch x := v.(type) {
		case yaml11.Unsafe:
			if out == nil {
				out = map[string]bool{}
			}
			out[string(x)] = true
		case []any:
			for _, e := range x {
				walk(e, depth+1)
			}
		case map[string]any:
			for _, e := range x {
				walk(e, depth+1)
			}
		}
	}
	for _, v := range args {
		walk(v, 0)
	}
	return out
}
