package expr

import (
	"math/rand/v2"
	"strings"

	"github.com/tender-sh/tender/internal/boolean"
	"github.com/tender-sh/tender/internal/pydict"
)

// The lookups that build loop items out of lists: list, nested, together,
// subelements and random_choice, with ansible-core's results and errors.

// listify is Ansible's listify_lookup_plugin_terms on a value that is
// already templated: a list or a dict stays as it is, anything else
// becomes a one-item list.
func listify(v any) any {
	switch v.(type) {
	case []any, map[string]any, Keyed:
		return v
	}
	return []any{v}
}

// pyFlatten is ansible-core's LookupBase._flatten: the items of x (a
// list's items, a string's characters, a dict's keys), with the items of
// any list among them spliced in.
func pyFlatten(x any) ([]any, error) {
	items, err := iterate(x)
	if err != nil {
		return nil, err
	}
	out := make([]any, 0, len(items))
	for _, it := range items {
		if l, ok := it.([]any); ok {
			out = append(out, l...)
		} else {
			out = append(out, it)
		}
	}
	return out, nil
}

// listLookup returns its terms: with_list loops over the list as given.
func listLookup(_ *evaluator, terms []any, _ map[string]any) ([]any, error) {
	return terms, nil
}

// nestedLookup is the cartesian product of its terms (each a list), each
// combination flattened one level: with_nested.
func nestedLookup(ev *evaluator, terms []any, _ map[string]any) ([]any, error) {
	if len(terms) == 0 {
		return nil, errorf("with_nested requires at least one element in the nested list")
	}
	result := listify(terms[0])
	for _, t := range terms[1:] {
		a, err := iterate(result)
		if err != nil {
			return nil, err
		}
		b, err := iterate(listify(t))
		if err != nil {
			return nil, err
		}
		if len(a)*len(b) > maxItems {
			return nil, errorf("with_nested would make %d items, more than %d", len(a)*len(b), maxItems)
		}
		if err := ev.step(len(a) * len(b)); err != nil {
			return nil, err
		}
		combined := make([]any, 0, len(a)*len(b))
		for _, x := range a {
			for _, y := range b {
				f, _ := pyFlatten([]any{x, y})
				combined = append(combined, f)
			}
		}
		result = combined
	}
	items, err := iterate(result)
	if err != nil {
		return nil, err
	}
	out := make([]any, 0, len(items))
	for _, x := range items {
		f, err := pyFlatten(x)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// togetherLookup zips its terms (each a list), padding the shorter ones
// with None, each tuple flattened one level: with_together.
func togetherLookup(ev *evaluator, terms []any, _ map[string]any) ([]any, error) {
	if len(terms) == 0 {
		return nil, errorf("with_together requires at least one element in each list")
	}
	lists := make([][]any, len(terms))
	longest := 0
	for i, t := range terms {
		l, err := iterate(listify(t))
		if err != nil {
			return nil, err
		}
		lists[i] = l
		longest = max(longest, len(l))
	}
	if err := ev.step(longest * len(lists)); err != nil {
		return nil, err
	}
	out := make([]any, 0, longest)
	for i := range longest {
		tuple := make([]any, len(lists))
		for j, l := range lists {
			if i < len(l) {
				tuple[j] = l[i]
			}
		}
		f, _ := pyFlatten(tuple)
		out = append(out, f)
	}
	return out, nil
}

// randomChoiceLookup picks one of its terms at random (none from none).
func randomChoiceLookup(_ *evaluator, terms []any, _ map[string]any) ([]any, error) {
	if len(terms) == 0 {
		return []any{}, nil
	}
	return []any{terms[rand.IntN(len(terms))]}, nil
}

// subelementsLookup is with_subelements: terms are a list of dicts (or a
// dict of them), a dotted key path to a list inside each, and optionally
// {skip_missing: bool}. The result pairs each dict with each item of its
// list; the dict in the pair no longer holds the list's key, as in
// Ansible. A dict (or the whole registered result) whose `skipped` is
// anything but false is left out.
func subelementsLookup(_ *evaluator, terms []any, _ map[string]any) ([]any, error) {
	termsErr := func(msg string) error {
		return ansibleErrorf("subelements lookup expects a list of two or three items, %s", msg)
	}
	if len(terms) == 0 {
		return nil, termsErr("")
	}
	first := listify(terms[0])
	if len(terms) < 2 || len(terms) > 3 {
		return nil, termsErr("")
	}
	key, isStr := text(terms[1])
	var elements []any
	switch t := first.(type) {
	case []any:
		elements = t
	case map[string]any:
		if notFalse(t, "skipped") {
			return []any{}, nil
		}
		for _, k := range pydict.Keys(t) {
			elements = append(elements, t[k])
		}
	default:
		isStr = false
	}
	if !isStr {
		return nil, termsErr("first a dict or a list, second a string pointing to the subkey")
	}
	subkeys := strings.Split(key, ".")
	flags := map[string]any{}
	if len(terms) == 3 {
		f, ok := terms[2].(map[string]any)
		if !ok {
			return nil, termsErr("the optional third item must be a dict with flags skip_missing")
		}
		flags = f
	}
	skipMissing := ansibleBool(flags["skip_missing"])
	out := []any{}
	for _, el := range elements {
		item0, ok := el.(map[string]any)
		if !ok {
			return nil, ansibleErrorf("subelements lookup expects a dictionary, got '%s'", Str(el))
		}
		if notFalse(item0, "skipped") {
			continue
		}
		// walk a copy: the list's key is taken out of the dict that held it
		item0 = copyMap(item0)
		sub := item0
		var sublist []any
		last := false
		for _, k := range subkeys {
			if k == subkeys[len(subkeys)-1] {
				last = true
			}
			v, ok := sub[k]
			if !ok {
				if skipMissing {
					continue
				}
				return nil, ansibleErrorf("could not find '%s' key in iterated item '%s'", k, Str(sub))
			}
			if !last {
				d, ok := v.(map[string]any)
				if !ok {
					if skipMissing {
						continue
					}
					return nil, ansibleErrorf("the key %s should point to a dictionary, got '%s'", k, Str(v))
				}
				d = copyMap(d)
				sub[k] = d
				sub = d
				continue
			}
			l, ok := v.([]any)
			if !ok {
				return nil, ansibleErrorf("the key %s should point to a list, got '%s'", k, Str(v))
			}
			sublist = l
			delete(sub, k)
		}
		for _, it := range sublist {
			out = append(out, []any{item0, it})
		}
	}
	return out, nil
}

// notFalse reports whether m has key with any value but false (Python's
// `m.get(key, False) is not False`).
func notFalse(m map[string]any, key string) bool {
	v, ok := m[key]
	if !ok {
		return false
	}
	b, isBool := v.(bool)
	return !isBool || b
}

// ansibleBool is Ansible's boolean(v, strict=False): true for True, 1,
// 1.0 and the strings y, yes, on, 1, true, t (any case, trimmed).
func ansibleBool(v any) bool {
	switch t := v.(type) {
	case bool:
		return t
	case int:
		return t == 1
	case float64:
		return t == 1
	}
	s, ok := text(v)
	return ok && boolean.True(s)
}

// indexedItemsLookup is indexed_items: [index, item] for each item of the
// terms, flattened one level.
func indexedItemsLookup(_ *evaluator, terms []any, _ map[string]any) ([]any, error) {
	items := flatten(terms, 1, false)
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = []any{i, it}
	}
	return out, nil
}
