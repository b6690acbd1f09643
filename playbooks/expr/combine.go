package expr

import (
	"slices"

	"github.com/tender-sh/tender/internal/pydict"
)

// combine is Ansible's combine filter: the input and the arguments (lists
// of dicts flattened one level, None dropped) merged so that later dicts
// win. recursive merges nested dicts; list_merge says what happens to two
// lists under one key: replace (the later list), keep (the earlier),
// append, prepend, append_rp and prepend_rp (as append and prepend, with
// the earlier list's elements that the later one has removed first).
func combine(env *Env, x any, args []any, kw map[string]any) (any, error) {
	recursive := false
	listMerge := "replace"
	for k, v := range kw {
		switch k {
		case "recursive":
			recursive = Truthy(v)
		case "list_merge":
			listMerge = Str(v)
		default:
			return nil, errorf("'recursive' and 'list_merge' are the only valid keyword arguments")
		}
	}
	dicts := flatten(append([]any{x}, args...), 1, true)
	for i, d := range dicts {
		if s, ok := d.(Scope); ok {
			m, err := materialize(s)
			if err != nil {
				return nil, err
			}
			dicts[i] = m
		}
	}
	switch len(dicts) {
	case 0:
		return map[string]any{}, nil
	case 1:
		return dicts[0], nil
	}
	// As Ansible's: from the highest priority (the last) down, each
	// lower dict merged under the result so far.
	result := dicts[len(dicts)-1]
	for i := len(dicts) - 2; i >= 0; i-- {
		x, y := dicts[i], result
		xm, ok1 := x.(map[string]any)
		ym, ok2 := y.(map[string]any)
		if !ok1 || !ok2 {
			if err := checkListMerge(listMerge); err != nil {
				return nil, err
			}
			return nil, errorf("failed to combine variables, expected dicts but got a '%s' and a '%s': \n%s\n%s",
				typeName(x), typeName(y), combineShown(x), combineShown(y))
		}
		if err := checkListMerge(listMerge); err != nil {
			return nil, err
		}
		// each merge copies the result so far: many dicts take time
		b := budgetOf(env)
		if err := b.tick(len(xm) + len(ym)); err != nil {
			return nil, err
		}
		result = mergeMaps(b, xm, ym, recursive, listMerge)
		if err := b.tick(0); err != nil {
			return nil, err
		}
	}
	return result, nil
}

// MergeHash returns a new dict, y merged over x, as Ansible's merge_hash
// (the combine filter, hash_behaviour=merge): y's values win; with
// recursive, two dicts under one key are merged in turn; listMerge says
// what two lists under one key give: replace (y's), keep (x's), append,
// prepend, append_rp or prepend_rp (as append and prepend, with x's
// elements that y has removed first). The keys are x's in x's order, then
// y's new ones in y's order.
func MergeHash(x, y map[string]any, recursive bool, listMerge string) (map[string]any, error) {
	if err := checkListMerge(listMerge); err != nil {
		return nil, err
	}
	return mergeMaps(nil, x, y, recursive, listMerge), nil
}

func checkListMerge(listMerge string) error {
	switch listMerge {
	case "replace", "keep", "append", "prepend", "append_rp", "prepend_rp":
		return nil
	}
	return errorf("merge_hash: 'list_merge' argument can only be equal to 'replace', 'keep', 'append', 'prepend', 'append_rp' or 'prepend_rp'")
}

// mergeMaps is MergeHash with a valid listMerge, within the budget b: it
// stops early when b has run out, which b.tick(0) tells after.
func mergeMaps(b *budget, xm, ym map[string]any, recursive bool, listMerge string) map[string]any {
	if len(xm) == 0 || Equal(xm, ym) {
		return copyMap(ym) // y's copy, in y's order, as Ansible's
	}
	// x's keys in x's order, then y's new ones in y's order.
	out := pydict.NewBuilder(len(xm) + len(ym))
	for _, k := range pydict.Keys(xm) {
		out.Set(k, xm[k])
	}
	for _, k := range pydict.Keys(ym) {
		yv := ym[k]
		xv, exists := out.Get(k)
		if !exists {
			out.Set(k, yv)
			continue
		}
		if xd, ok := xv.(map[string]any); ok {
			if yd, ok := yv.(map[string]any); ok {
				if !recursive {
					out.Set(k, yv)
					continue
				}
				out.Set(k, mergeMaps(b, xd, yd, recursive, listMerge))
				continue
			}
		}
		xl, ok1 := xv.([]any)
		yl, ok2 := yv.([]any)
		if !ok1 || !ok2 {
			out.Set(k, yv)
			continue
		}
		switch listMerge {
		case "replace":
			out.Set(k, yv)
		case "append":
			out.Set(k, concat(xl, yl))
		case "prepend":
			out.Set(k, concat(yl, xl))
		case "append_rp":
			out.Set(k, concat(without(b, xl, yl), yl))
		case "prepend_rp":
			out.Set(k, concat(yl, without(b, xl, yl)))
		}
		// keep: x's list stays
	}
	return out.Map()
}

// concat returns a new list: a's elements, then b's.
func concat(a, b []any) []any {
	return append(append(make([]any, 0, len(a)+len(b)), a...), b...)
}

// without returns the elements of a that b does not have (Python's ==),
// comparing each with each within the budget bud (it stops early when
// bud has run out).
func without(bud *budget, a, b []any) []any {
	out := []any{}
	for _, e := range a {
		if bud.tick(len(b)+1) != nil {
			break
		}
		if !slices.ContainsFunc(b, func(f any) bool { return Equal(e, f) }) {
			out = append(out, e)
		}
	}
	return out
}

// combineShown is how combine's error shows a value: as JSON, or as text
// where JSON cannot say it.
func combineShown(v any) string {
	if s, err := toJSON(v, -1); err == nil {
		return s
	}
	return Str(v)
}
