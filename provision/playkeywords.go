package provision

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
)

// playKeywords returns p with the keywords Ansible validates once per
// play (its post_validate, in the play's scope and no host's) rendered,
// in Ansible's order: hosts (rendered, not stored: see hostPatterns),
// force_handlers, max_fail_percentage (a number), serial, strategy and
// order; any_errors_fatal too when it renders (else each task fails on
// it, as Ansible's inherit it as written). A keyword that renders to omit is unset,
// as Ansible sets it back to its default. An error is a *PlayError
// without the play's position.
func playKeywords(p *playbooks.Play, scope expr.Scope) (*playbooks.Play, string, error) {
	out := *p
	hosts, err := expr.Render(p.Hosts, scope)
	if err != nil {
		return nil, "", playFieldError("hosts", err)
	}
	pattern, err := hostPatterns(hosts)
	if err != nil {
		return nil, "", &PlayError{Err: err, Parser: true}
	}
	for _, b := range []struct {
		name string
		v    *playbooks.Bool
	}{{"force_handlers", &out.ForceHandlers}, {"any_errors_fatal", &out.AnyErrorsFatal}} {
		if !b.v.Set || b.v.Expr == "" {
			continue
		}
		v, err := boolValue(*b.v, scope)
		var nb *notBool
		switch {
		case errors.Is(err, errOmitted):
			*b.v = playbooks.Bool{}
		case err != nil && b.name == "any_errors_fatal":
			// Not a play keyword Ansible validates: each task inherits
			// it as written and fails on it.
		case errors.As(err, &nb):
			return nil, "", &PlayError{Err: fieldError(nil, b.name, *b.v, err), Parser: true}
		case err != nil:
			return nil, "", playFieldError(b.name, err)
		default:
			*b.v = playbooks.Bool{Set: true, Value: v}
		}
	}
	if out.MaxFailPercentage, err = renderKeyword(p.MaxFailPercentage, scope); err != nil {
		return nil, "", playFieldError("max_fail_percentage", err)
	}
	if out.MaxFailPercentage, err = percentField(out.MaxFailPercentage); err != nil {
		return nil, "", &PlayError{Err: err, Parser: true}
	}
	if out.Serial, err = renderKeyword(p.Serial, scope); err != nil {
		return nil, "", playFieldError("serial", err)
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"strategy", &out.Strategy}, {"order", &out.Order}} {
		if !expr.IsTemplate(*f.v) {
			continue
		}
		v, err := renderKeyword(*f.v, scope)
		if err != nil {
			return nil, "", playFieldError(f.name, err)
		}
		*f.v = ""
		if v != nil {
			*f.v = expr.Str(v)
		}
	}
	return &out, pattern, nil
}

// PlayError is a play that cannot start: a keyword Ansible validates
// before the play runs (hosts, serial, strategy, …) did not render or
// does not convert. ansible-playbook prints it with no recap and exits
// 4 for its parser errors (an undefined variable, a value of the wrong
// type: Parser), 1 for the others (a template that fails).
type PlayError struct {
	Err    error
	Parser bool
}

func (e *PlayError) Error() string { return e.Err.Error() }

func (e *PlayError) Unwrap() error { return e.Err }

// at gives the error the play's position, as Ansible's names the play.
func (e *PlayError) at(p *playbooks.Play) *PlayError {
	return &PlayError{Err: fmt.Errorf("%s: %w", p.Pos, e.Err), Parser: e.Parser}
}

// playFieldError is Ansible's error for a play keyword whose template
// fails: its parser error naming the keyword for an undefined variable,
// else the templating error.
func playFieldError(name string, err error) *PlayError {
	var u *expr.UndefinedError
	if errors.As(err, &u) {
		return &PlayError{Err: fmt.Errorf("The field '%s' has an invalid value, which includes an undefined variable. The error was: %s. %s", name, u.Msg, u.Msg), Parser: true}
	}
	return &PlayError{Err: errors.New(typeErrorText(err))}
}

// percentField converts max_fail_percentage as Ansible's percent
// attribute does: Python's float() of the value, '%' signs removed from
// a string.
func percentField(v any) (any, error) {
	var f float64
	switch t := v.(type) {
	case nil:
		return nil, nil
	case bool:
		f = 0
		if t {
			f = 1
		}
	case int:
		f = float64(t)
	case float64:
		f = t
	case string, yaml11.Unsafe:
		s := strings.ReplaceAll(expr.Str(t), "%", "")
		var ok bool
		if f, ok = expr.PyFloat(s); !ok {
			return nil, fmt.Errorf("the field 'max_fail_percentage' has an invalid value (%s), and could not be converted to an percent.The error was: could not convert string to float: %s", expr.Str(v), expr.Repr(s))
		}
	default:
		return nil, fmt.Errorf("the field 'max_fail_percentage' has an invalid value (%s), and could not be converted to an percent.The error was: float() argument must be a string or a real number, not '%s'", expr.Str(v), expr.TypeName(v))
	}
	return f, nil
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

// playName is the play's name as Ansible shows it: its name:, else its
// hosts as written (Ansible names the play when it loads it), rendered in
// the play's scope as text (a template with an undefined variable stays
// as written, one that fails otherwise fails the play).
func (pr *playRun) playName() (string, error) {
	name := pr.play.Name
	if name == "" {
		name = pr.play.Hosts
	}
	if !expr.IsTemplate(name) {
		return name, nil
	}
	v, err := expr.Render(name, pr.playScope())
	var u *expr.UndefinedError
	switch {
	case errors.As(err, &u):
		return name, nil
	case err != nil:
		return "", (&PlayError{Err: errors.New(typeErrorText(err))}).at(pr.play)
	}
	return expr.Str(v), nil
}
