package provision

import (
	"errors"
	"fmt"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
)

// playKeywords returns p with the keywords Ansible templates once per
// play (its post_validate, in the play's variables and no host's)
// rendered: serial, max_fail_percentage, strategy, force_handlers and
// any_errors_fatal. A keyword that renders to omit is unset, as Ansible
// sets it back to its default.
func playKeywords(p *playbooks.Play, scope expr.Scope) (*playbooks.Play, error) {
	out := *p
	var err error
	if out.Serial, err = renderKeyword(p.Serial, scope); err != nil {
		return nil, fmt.Errorf("serial: %w", err)
	}
	if out.MaxFailPercentage, err = renderKeyword(p.MaxFailPercentage, scope); err != nil {
		return nil, fmt.Errorf("max_fail_percentage: %w", err)
	}
	if expr.IsTemplate(p.Strategy) {
		v, err := renderKeyword(p.Strategy, scope)
		if err != nil {
			return nil, fmt.Errorf("strategy: %w", err)
		}
		out.Strategy = ""
		if v != nil {
			out.Strategy = expr.Str(v)
		}
	}
	for _, b := range []struct {
		name string
		v    *playbooks.Bool
	}{{"force_handlers", &out.ForceHandlers}, {"any_errors_fatal", &out.AnyErrorsFatal}} {
		if !b.v.Set || b.v.Expr == "" {
			continue
		}
		v, err := boolValue(*b.v, scope)
		switch {
		case errors.Is(err, errOmitted):
			*b.v = playbooks.Bool{}
		case err != nil:
			return nil, fieldError(b.name, err)
		default:
			*b.v = playbooks.Bool{Set: true, Value: v}
		}
	}
	return &out, nil
}

// renderKeyword renders a keyword's value; nil when it renders to omit.
func renderKeyword(v any, scope expr.Scope) (any, error) {
	if v == nil {
		return nil, nil
	}
	r, err := expr.RenderDeep(v, scope)
	if err != nil || expr.IsOmit(r) {
		return nil, err
	}
	return r, nil
}
