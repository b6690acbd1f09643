package expr

import "github.com/tender-sh/tender/internal/pydict"

// operands evaluates what a filter or test is applied to, x, then its
// arguments (see arguments). keepX passes an undefined x on as the
// *undefined itself (default, mandatory, defined, undefined decide on it);
// otherwise an undefined x fails.
func (ev *evaluator) operands(x node, keepX bool, c *callArgs, keepUndefined bool) (any, []any, map[string]any, error) {
	value := ev.value
	if keepX {
		value = ev.eval
	}
	v, err := value(x)
	if err != nil {
		return nil, nil, nil, err
	}
	args, kwargs, err := ev.arguments(c, keepUndefined)
	if err != nil {
		return nil, nil, nil, err
	}
	return v, args, kwargs, nil
}

// arguments evaluates the arguments of a call, filter or test: the
// positional ones followed by the items of *iterable, and the keyword ones
// merged with **mapping (a keyword given twice is an error, as in Python).
// The keyword map is nil when there are none.
//
// keepUndefined passes an undefined argument (positional or keyword) on as
// the *undefined itself, as Jinja does, for the callee to decide; without
// it, such an argument fails the call.
func (ev *evaluator) arguments(c *callArgs, keepUndefined bool) ([]any, map[string]any, error) {
	value := ev.value
	if keepUndefined {
		value = ev.eval
	}
	args := make([]any, len(c.args))
	for i, n := range c.args {
		v, err := value(n)
		if err != nil {
			return nil, nil, err
		}
		args[i] = v
	}
	if c.star != nil {
		v, err := ev.value(c.star)
		if err != nil {
			return nil, nil, err
		}
		items, err := iterate(v)
		if err != nil {
			return nil, nil, ev.wrap(c.star, typeErrorf("Value after * must be an iterable, not %s", typeName(v)))
		}
		if err := ev.step(len(items)); err != nil {
			return nil, nil, err
		}
		args = append(args, items...)
	}
	var kwargs map[string]any
	var kwOrder []string
	if len(c.kwargs) > 0 || c.dstar != nil {
		kwargs = make(map[string]any, len(c.kwargs))
	}
	for _, k := range c.kwargs {
		v, err := value(k.val)
		if err != nil {
			return nil, nil, err
		}
		kwargs[k.name] = v
		kwOrder = append(kwOrder, k.name)
	}
	if c.dstar != nil {
		v, err := ev.value(c.dstar)
		if err != nil {
			return nil, nil, err
		}
		var m map[string]any
		switch t := v.(type) {
		case map[string]any:
			m = t
		case Keyed:
			if m, err = materialize(t); err != nil {
				return nil, nil, ev.wrap(c.dstar, err)
			}
		default:
			return nil, nil, ev.wrap(c.dstar, typeErrorf("ansible.template.AnsibleContext.call() argument after ** must be a mapping, not %s", typeName(v)))
		}
		for _, k := range pydict.Keys(m) {
			if _, dup := kwargs[k]; dup {
				return nil, nil, ev.wrap(c.dstar, typeErrorf("got multiple values for keyword argument '%s'", k))
			}
			kwargs[k] = m[k]
			kwOrder = append(kwOrder, k)
		}
	}
	// Keyword arguments keep the order they were given in (dict(b=1, a=2)).
	return args, pydict.Record(kwargs, kwOrder), nil
}
