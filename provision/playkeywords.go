package provision

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
)

// playKeywords returns p with the keywords Ansible templates once per
// play (its post_validate, in the play's variables and no host's)
// rendered: serial, max_fail_percentage, order, strategy, force_handlers
// and any_errors_fatal. A keyword that renders to omit is unset, as Ansible
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
	if expr.IsTemplate(p.Order) {
		v, err := renderKeyword(p.Order, scope)
		if err != nil {
			return nil, fmt.Errorf("order: %w", err)
		}
		out.Order = ""
		if v != nil {
			out.Order = expr.Str(v)
		}
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
			return nil, fieldError(nil, b.name, *b.v, err)
		default:
			*b.v = playbooks.Bool{Set: true, Value: v}
		}
	}
	return &out, nil
}

// orderHosts puts a play's hosts in the order its order keyword asks, as
// Ansible's inventory gives them: inventory (the default),
// reverse_inventory, sorted and reverse_sorted (by name), or shuffle.
func orderHosts(hosts []*hostRun, order string) ([]*hostRun, error) {
	out := slices.Clone(hosts)
	byName := func(a, b *hostRun) int { return strings.Compare(a.name, b.name) }
	switch order {
	case "", "inventory":
	case "reverse_inventory":
		slices.Reverse(out)
	case "sorted":
		slices.SortStableFunc(out, byName)
	case "reverse_sorted":
		slices.SortStableFunc(out, byName)
		slices.Reverse(out)
	case "shuffle":
		rand.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	default:
		return nil, &OptionsError{Msg: fmt.Sprintf("Invalid 'order' specified for inventory hosts: %s", order)}
	}
	return out, nil
}

// OptionsError is a setting Ansible refuses as an invalid option (its
// AnsibleOptionsError, for which ansible-playbook exits 5), such as a
// play's order.
type OptionsError struct{ Msg string }

func (e *OptionsError) Error() string { return e.Msg }

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
