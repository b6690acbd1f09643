package expr

import (
	"slices"
	"sort"
)

// sortBy is Python's sorted(items, key=key, reverse=reverse): stable,
// the keys computed once, compared with < alone. A list of fewer than 64
// items is sorted as Python's timsort sorts it, by the same comparisons in
// the same order (a run from the start, then binary insertion), so that
// keys that do not compare fail on the pair Python's error names; with
// reverse the list is reversed before and after, as Python's is.
func sortBy(bud *budget, items []any, key func(any) any, reverse bool) (out []any, err error) {
	type keyed struct{ k, v any }
	ks := make([]keyed, len(items))
	for i, it := range items {
		ks[i] = keyed{key(it), it}
	}
	if reverse {
		slices.Reverse(ks)
	}
	less := func(a, b keyed) (bool, error) {
		if e := bud.tick(1); e != nil {
			return false, e
		}
		c, e := compare("<", a.k, b.k)
		return c < 0, e
	}
	if len(ks) < 64 {
		err = pySmallSort(ks, less)
	} else {
		// a comparison that fails unwinds the sort, which has no other
		// way to stop
		defer func() {
			if r := recover(); r != nil {
				s, ok := r.(stopSort)
				if !ok {
					panic(r)
				}
				err = s.err
			}
		}()
		sort.SliceStable(ks, func(i, j int) bool {
			lt, e := less(ks[i], ks[j])
			if e != nil {
				panic(stopSort{e})
			}
			return lt
		})
	}
	if err != nil {
		return nil, err
	}
	if reverse {
		slices.Reverse(ks)
	}
	out = make([]any, len(ks))
	for i, k := range ks {
		out[i] = k.v
	}
	return out, nil
}

// pySmallSort is CPython's list sort for fewer than 64 items: the run at
// the start (ascending, or strictly descending and then reversed), then
// each later item put in place by binary insertion.
func pySmallSort[T any](a []T, less func(x, y T) (bool, error)) error {
	if len(a) < 2 {
		return nil
	}
	n := 2
	desc, err := less(a[1], a[0])
	if err != nil {
		return err
	}
	for ; n < len(a); n++ {
		lt, err := less(a[n], a[n-1])
		if err != nil {
			return err
		}
		if lt != desc {
			break
		}
	}
	if desc {
		slices.Reverse(a[:n])
	}
	for start := n; start < len(a); start++ {
		pivot := a[start]
		l, r := 0, start
		for l < r {
			p := l + (r-l)/2
			lt, err := less(pivot, a[p])
			if err != nil {
				return err
			}
			if lt {
				r = p
			} else {
				l = p + 1
			}
		}
		copy(a[l+1:start+1], a[l:start])
		a[l] = pivot
	}
	return nil
}

// stopSort carries a budget's error out of sort.SliceStable.
type stopSort struct{ err error }
