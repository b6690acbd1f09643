package expr

import "github.com/tender-sh/tender/internal/pydict"

// pyRange is Python's range() for the range global: one to three ints.
func pyRange(args []any) (any, error) {
	ints := make([]int, len(args))
	for i, a := range args {
		v, ok := integer(a)
		if !ok {
			return nil, errorf("'%s' object cannot be interpreted as an integer", typeName(a))
		}
		ints[i] = v
	}
	start, stop, step := 0, 0, 1
	switch len(ints) {
	case 1:
		stop = ints[0]
	case 2:
		start, stop = ints[0], ints[1]
	case 3:
		start, stop, step = ints[0], ints[1], ints[2]
	default:
		return nil, typeErrorf("range expected at most 3 arguments, got %d", len(ints))
	}
	if step == 0 {
		return nil, errorf("range() arg 3 must not be zero")
	}
	out := []any{}
	for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
		if len(out) >= maxItems {
			return nil, errorf("range too large")
		}
		out = append(out, i)
	}
	return out, nil
}

// dictArgs is the dict that dict(mapping_or_pairs, **kw) makes: a single
// positional argument's entries, then the keyword ones (more positional
// arguments are ignored).
func dictArgs(args []any, kw map[string]any) (map[string]any, error) {
	out := pydict.NewBuilder(len(kw))
	if len(args) == 1 {
		if err := dictFrom(out, args[0]); err != nil {
			return nil, err
		}
	}
	for _, k := range pydict.Keys(kw) {
		out.Set(k, kw[k])
	}
	return out.Map(), nil
}

// dictFrom fills out from a dict or a list of [key, value] pairs.
func dictFrom(out *pydict.Builder, v any) error {
	switch t := v.(type) {
	case map[string]any:
		for _, k := range pydict.Keys(t) {
			out.Set(k, t[k])
		}
		return nil
	case []any:
		for _, p := range t {
			pair, ok := p.([]any)
			if !ok || len(pair) != 2 {
				return errorf("dictionary update sequence element has wrong length; 2 is required")
			}
			out.Set(Str(pair[0]), pair[1])
		}
		return nil
	}
	return typeErrorf("'%s' object is not iterable", typeName(v))
}
