package provision

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
)

// withPrompted returns p with its vars_prompt variables among its vars,
// asked as ansible-playbook asks them when the play starts: the entries
// are templates rendered with the play's variables; a variable given
// with -e is not asked; without Runner.Prompt the default is taken (with
// a warning), and an answer that is empty takes it too; no answer and no
// default is the string "None", as Python's str(None). p itself is not
// changed.
func (rn *run) withPrompted(ctx context.Context, p *playbooks.Play, scope *expr.Vars) (*playbooks.Play, error) {
	if len(p.VarsPrompt) == 0 {
		return p, nil
	}
	out := *p
	out.Vars = maps.Clone(p.Vars)
	if out.Vars == nil {
		out.Vars = map[string]any{}
	}
	warned := false
	for _, raw := range p.VarsPrompt {
		r, err := expr.RenderDeep(map[string]any(raw), scope)
		if err != nil {
			return nil, fmt.Errorf("vars_prompt: %w", err)
		}
		e := r.(map[string]any)
		name := expr.Str(e["name"])
		if _, given := rn.r.ExtraVars[name]; given {
			continue
		}
		var v any
		if rn.r.Prompt == nil {
			if !warned {
				rn.emit(Event{Kind: Warning, Play: p.Name, Msg: "Not prompting as we are not in interactive mode"})
				warned = true
			}
		} else if v, err = rn.ask(ctx, name, e); err != nil {
			return nil, err
		}
		if (v == nil || v == "") && e["default"] != nil {
			v = e["default"]
		}
		if enc, ok := e["encrypt"]; ok && enc != nil {
			if v, err = promptHash(v, e, scope); err != nil {
				return nil, fmt.Errorf("vars_prompt %s: %w", name, err)
			}
		}
		s := expr.Str(v)
		if v == nil {
			s = "None"
		}
		if u, _ := tasks.ParseBool(e["unsafe"]); u {
			out.Vars[name] = yaml11.Unsafe(s)
		} else {
			out.Vars[name] = s
		}
	}
	return &out, nil
}

// ask prompts for one variable, twice with confirm until both answers
// match, as Ansible's prompt.
func (rn *run) ask(ctx context.Context, name string, e map[string]any) (any, error) {
	msg := "input for " + name + ": "
	if pr, ok := e["prompt"]; ok && pr != nil && expr.Str(pr) != "" {
		msg = expr.Str(pr) + ": "
		if d := e["default"]; d != nil {
			msg = fmt.Sprintf("%s [%s]: ", expr.Str(pr), expr.Str(d))
		}
	}
	private := true
	if p, ok := e["private"]; ok {
		b, err := tasks.ParseBool(p)
		if err != nil {
			return nil, fmt.Errorf("vars_prompt %s: private: %w", name, err)
		}
		private = b
	}
	confirm, err := tasks.ParseBool(e["confirm"])
	if e["confirm"] != nil && err != nil {
		return nil, fmt.Errorf("vars_prompt %s: confirm: %w", name, err)
	}
	for {
		v, err := rn.r.Prompt(ctx, msg, private)
		if err != nil || !confirm {
			return v, err
		}
		again, err := rn.r.Prompt(ctx, "confirm "+msg, private)
		if err != nil {
			return nil, err
		}
		if again == v {
			return v, nil
		}
		rn.emit(Event{Kind: Warning, Msg: "***** VALUES ENTERED DO NOT MATCH ****"})
	}
}

// promptHash hashes an answer as vars_prompt's encrypt does, with the
// password_hash filter's schemes; salt_size is refused.
func promptHash(v any, e map[string]any, scope *expr.Vars) (any, error) {
	if e["salt_size"] != nil {
		return nil, errors.New("salt_size is not supported by tender: give salt, or leave it to be random")
	}
	vars := map[string]any{"__prompt_value": expr.Str(v), "__prompt_scheme": e["encrypt"], "__prompt_salt": e["salt"]}
	src := "__prompt_value | password_hash(__prompt_scheme)"
	if e["salt"] != nil {
		src = "__prompt_value | password_hash(__prompt_scheme, __prompt_salt)"
	}
	return expr.Render("{{ "+src+" }}", scope.With(vars))
}
