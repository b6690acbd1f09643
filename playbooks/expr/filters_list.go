package expr

import (
	crand "crypto/rand"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// sortKey is Jinja's ignore_case: strings compare lowercased unless
// case_sensitive.
func sortKey(v any, caseSensitive bool) any {
	if s, ok := text(v); ok && !caseSensitive {
		return strings.ToLower(s)
	}
	return v
}

func minMax(x any, args []any, kw map[string]any, want int) (any, error) {
	items, err := iterate(x)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return &undefined{msg: "No aggregated item, sequence was empty.", hint: "No aggregated item, sequence was empty."}, nil
	}
	cs := Truthy(argOr(args, kw, 0, "case_sensitive", false))
	attr := argOr(args, kw, 1, "attribute", nil)
	// Python's min() asks item < best, max() item > best: a TypeError
	// names that operator.
	op := "<"
	if want > 0 {
		op = ">"
	}
	keys, err := attrsOf(items, attr, false, cs)
	if err != nil {
		return nil, err
	}
	best := 0
	for i := range items[1:] {
		c, err := compare(op, keys[i+1], keys[best])
		if err != nil {
			return nil, err
		}
		if c == want {
			best = i + 1
		}
	}
	return items[best], nil
}

// uniqueList keeps the first of equal items; strings compare lowercased
// unless caseSensitive (Jinja's unique, which Ansible's delegates to).
// Lists and dicts have no hash: each is compared with every one kept
// before, within the budget b.
func uniqueList(b *budget, items []any, caseSensitive bool) ([]any, error) {
	out := []any{}
	seen := map[string]bool{}
	var others []any // lists and dicts: compared by equality
	for _, it := range items {
		if err := b.tick(len(others) + 1); err != nil {
			return nil, err
		}
		k := sortKey(it, caseSensitive)
		if h, ok := hashKey(k); ok {
			if !seen[h] {
				seen[h] = true
				out = append(out, it)
			}
			continue
		}
		dup := false
		for _, s := range others {
			if Equal(s, k) {
				dup = true
				break
			}
		}
		if !dup {
			others = append(others, k)
			out = append(out, it)
		}
	}
	return out, nil
}

// hashKey is a map key under which Python-equal scalars collide (1, 1.0
// and True are equal in Python); lists and dicts have none.
func hashKey(v any) (string, bool) {
	if isNumber(v) {
		if i, isInt := integer(v); isInt {
			return "n" + strconv.Itoa(i), true
		}
		if b, isBig := v.(*big.Int); isBig {
			return "n" + b.String(), true
		}
		f := v.(float64)
		if f == math.Trunc(f) && !math.IsInf(f, 0) {
			n, _ := intOfFloat(f)
			return "n" + Str(n), true
		}
		return "f" + strconv.FormatFloat(f, 'g', -1, 64), true
	}
	if s, ok := text(v); ok {
		return "s" + s, true
	}
	if v == nil {
		return "none", true
	}
	return "", false
}

func listOf(x any) ([]any, error) { return iterate(x) }

func flatten(items []any, levels int, skipNulls bool) []any {
	out := []any{}
	for _, e := range items {
		if skipNulls && (e == nil || e == "None" || e == "null") {
			continue
		}
		if l, ok := e.([]any); ok && levels != 0 {
			out = append(out, flatten(l, levels-1, skipNulls)...)
			continue
		}
		out = append(out, e)
	}
	return out
}

func setOp(bud *budget, name string, x any, args []any) (any, error) {
	if len(args) < 1 {
		return nil, errorf("%s needs a second list", name)
	}
	a, err := listOf(x)
	if err != nil {
		return nil, err
	}
	b, err := listOf(args[0])
	if err != nil {
		return nil, err
	}
	// lists and dicts have no hash: each is compared with every one of
	// the other list's, within the budget
	var stop error
	index := func(l []any) func(any) bool {
		keys := map[string]bool{}
		var rest []any
		for _, e := range l {
			if h, ok := hashKey(e); ok {
				keys[h] = true
			} else {
				rest = append(rest, e)
			}
		}
		return func(v any) bool {
			if h, ok := hashKey(v); ok {
				return keys[h]
			}
			if stop == nil {
				stop = bud.tick(len(rest))
			}
			if stop != nil {
				return false // stop fails the operation below
			}
			ok, _ := contain(rest, v)
			return ok
		}
	}
	inA, inB := index(a), index(b)
	var out []any
	switch name {
	case "union":
		out = append(append(out, a...), b...)
	case "intersect":
		for _, v := range a {
			if inB(v) {
				out = append(out, v)
			}
		}
	case "difference":
		for _, v := range a {
			if !inB(v) {
				out = append(out, v)
			}
		}
	case "symmetric_difference":
		for _, v := range a {
			if !inB(v) {
				out = append(out, v)
			}
		}
		for _, v := range b {
			if !inA(v) {
				out = append(out, v)
			}
		}
	}
	if stop != nil {
		return nil, stop
	}
	return uniqueList(bud, out, true)
}

// randInt is a random integer in [0, n): Python's random.Random(seed)'s
// when a seed is given (an unusable seed draws at random).
func randInt(n int, seed any) int {
	if seed != nil {
		if r, err := newPyRandom(seed); err == nil {
			return r.intn(n)
		}
	}
	v, err := crand.Int(crand.Reader, big.NewInt(int64(n)))
	if err != nil {
		return 0
	}
	return int(v.Int64())
}

var listFilters = map[string]filterFunc{
	"length": fLength,
	"count":  fLength,
	"first": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		items, err := listOf(x)
		if err != nil {
			return nil, err
		}
		if len(items) == 0 {
			return &undefined{msg: "No first item, sequence was empty.", hint: "No first item, sequence was empty."}, nil
		}
		return items[0], nil
	},
	"last": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		items, err := listOf(x)
		if err != nil {
			return nil, err
		}
		if len(items) == 0 {
			return &undefined{msg: "No last item, sequence was empty.", hint: "No last item, sequence was empty."}, nil
		}
		return items[len(items)-1], nil
	},
	"list": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		items, err := listOf(x)
		return append([]any{}, items...), err
	},
	"unique": func(env *Env, x any, args []any, kw map[string]any) (any, error) {
		return uniqueFilter(budgetOf(env), x, argOr(args, kw, 0, "case_sensitive", nil), argOr(args, kw, 1, "attribute", nil))
	},
	"sort": func(env *Env, x any, args []any, kw map[string]any) (any, error) {
		items, err := listOf(x)
		if err != nil {
			return nil, err
		}
		rev := Truthy(argOr(args, kw, 0, "reverse", false))
		cs := Truthy(argOr(args, kw, 1, "case_sensitive", false))
		attr := argOr(args, kw, 2, "attribute", nil)
		keys, err := attrsOf(items, attr, true, cs)
		if err != nil {
			return nil, err
		}
		// sortBy keys each item by its index in keys
		idx := make([]any, len(items))
		for i := range idx {
			idx[i] = i
		}
		sorted, err := sortBy(budgetOf(env), idx, func(v any) any { return keys[v.(int)] }, rev)
		if err != nil {
			return nil, err
		}
		for i, v := range sorted {
			sorted[i] = items[v.(int)]
		}
		return sorted, nil
	},
	"min": func(_ *Env, x any, args []any, kw map[string]any) (any, error) { return minMax(x, args, kw, -1) },
	"max": func(_ *Env, x any, args []any, kw map[string]any) (any, error) { return minMax(x, args, kw, 1) },
	"sum": func(env *Env, x any, args []any, kw map[string]any) (any, error) {
		items, err := listOf(x)
		if err != nil {
			return nil, err
		}
		attr := argOr(args, kw, 0, "attribute", nil)
		acc := argOr(args, kw, 1, "start", 0)
		if _, isText := text(acc); isText {
			return nil, typeErrorf("sum() can't sum strings [use ''.join(seq) instead]")
		}
		// summing strings or lists copies the sum so far at each item:
		// each copy but the last (the result, counted by the evaluator)
		// counts against the budget
		b := budgetOf(env)
		var last int64
		for _, it := range items {
			v, err := attrOf(it, attr)
			if err != nil {
				return nil, err
			}
			next, err := binary("+", acc, v)
			if err != nil {
				return nil, err
			}
			if err := b.alloc(last); err != nil {
				return nil, err
			}
			last = newBytes(next, false, []any{acc, v})
			if err := b.tick(int(last) + 1); err != nil {
				return nil, err
			}
			acc = next
		}
		return acc, nil
	},
	"join": func(env *Env, x any, args []any, kw map[string]any) (any, error) {
		items, err := listOf(x)
		if err != nil {
			return nil, err
		}
		if attr := argOr(args, kw, 1, "attribute", nil); attr != nil {
			// a new list: the one given is the variable's own
			picked := make([]any, len(items))
			for i, it := range items {
				if picked[i], err = attrOf(it, attr); err != nil {
					return nil, err
				}
			}
			items = picked
		}
		return joinValues(budgetOf(env), items, strArg(args, kw, 0, "d", ""))
	},
	"flatten": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		items, err := listOf(x)
		if err != nil {
			return nil, err
		}
		levels := -1
		if l := argOr(args, kw, 0, "levels", nil); l != nil {
			levels, _ = integer(l)
		}
		return flatten(items, levels, Truthy(argOr(args, kw, 1, "skip_nulls", true))), nil
	},
	"union": func(env *Env, x any, a []any, _ map[string]any) (any, error) {
		return setOp(budgetOf(env), "union", x, a)
	},
	"intersect": func(env *Env, x any, a []any, _ map[string]any) (any, error) {
		return setOp(budgetOf(env), "intersect", x, a)
	},
	"difference": func(env *Env, x any, a []any, _ map[string]any) (any, error) {
		return setOp(budgetOf(env), "difference", x, a)
	},
	"symmetric_difference": func(env *Env, x any, a []any, _ map[string]any) (any, error) {
		return setOp(budgetOf(env), "symmetric_difference", x, a)
	},
	"zip": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		strict := Truthy(kw["strict"])
		lists := [][]any{}
		for _, v := range append([]any{x}, args...) {
			l, err := listOf(v)
			if err != nil {
				return nil, err
			}
			lists = append(lists, l)
		}
		out := []any{}
		for i := 0; ; i++ {
			row := []any{}
			for j, l := range lists {
				if i >= len(l) {
					if strict {
						if err := zipStrict(lists, j, i); err != nil {
							return nil, err
						}
					}
					return out, nil
				}
				row = append(row, l[i])
			}
			out = append(out, row)
		}
	},
	"random": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		seed := argOr(args, kw, 2, "seed", nil)
		if integral(x) {
			return randRange(argOr(args, kw, 0, "start", 0), x, argOr(args, kw, 1, "step", 1), seed)
		}
		// As Ansible's: a sequence (list, dict, string) is chosen from;
		// anything else but an integer is an error.
		_, iterable := text(x)
		switch x.(type) {
		case []any, map[string]any, Keyed:
			iterable = true
		}
		if !iterable {
			return nil, errorf("random can only be used on sequences and integers")
		}
		if Truthy(argOr(args, kw, 0, "start", nil)) || Truthy(argOr(args, kw, 1, "step", nil)) {
			return nil, errorf("start and step can only be used with integer values")
		}
		items, err := listOf(x)
		if err != nil {
			return nil, err
		}
		if len(items) == 0 {
			return nil, &pyError{msg: "Cannot choose from an empty sequence", exc: "IndexError"}
		}
		i := randInt(len(items), seed)
		switch x.(type) {
		case map[string]any, Keyed:
			// Python's random.choice indexes the dict by position, a key
			// a play's dict (its keys text) does not have.
			return nil, &pyError{msg: strconv.Itoa(i), exc: "KeyError"}
		}
		return items[i], nil
	},
}

func fLength(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
	switch t := x.(type) {
	case []any:
		return len(t), nil
	case map[string]any:
		return len(t), nil
	}
	if s, ok := text(x); ok {
		return len([]rune(s)), nil
	}
	if k, ok := x.(Keyed); ok {
		return len(k.Keys()), nil
	}
	if _, ok := x.(*groupTuple); ok {
		return 2, nil
	}
	return nil, typeErrorf("object of type '%s' has no len()", typeName(x))
}

// joinValues is sep.join(str(item) for item in x) within the budget b.
func joinValues(b *budget, x any, sep string) (any, error) {
	items, err := listOf(x)
	if err != nil {
		return nil, err
	}
	parts := make([]string, len(items))
	total := 0
	for i, it := range items {
		parts[i] = Str(it)
		total += len(parts[i]) + len(sep)
		if total > maxSize {
			return nil, errorf("joined string too large")
		}
		if err := b.tick(len(parts[i]) + len(sep) + 1); err != nil {
			return nil, err
		}
	}
	return strings.Join(parts, sep), nil
}

// higherOrder implements select/reject/selectattr/rejectattr/map.
func (ev *evaluator) higherOrder(n node, name string, x any, args []any, kw map[string]any) (any, error) {
	items, err := listOf(x)
	if err != nil {
		return nil, err
	}
	if name == "map" {
		out := []any{}
		// attribute= maps an attribute only when no filter is named, as
		// in Jinja: map('map', attribute='x') hands it to the inner map.
		if attr, ok := kw["attribute"]; ok && len(args) == 0 {
			def, hasDef := kw["default"]
			for _, it := range items {
				v := getPath(it, Str(attr))
				if _, u := v.(*undefined); u && hasDef {
					v = def
				}
				out = append(out, v)
			}
			return out, nil
		}
		if len(args) == 0 {
			return nil, errorf("map requires a filter name or attribute=")
		}
		name := Str(args[0])
		for _, it := range items {
			var v any
			var err error
			if slices.Contains(higherOrderFilters, pluginName(name)) {
				v, err = ev.higherOrder(n, pluginName(name), it, args[1:], kw)
			} else {
				v, err = applyFilter(ev.env(), name, true, it, args[1:], kw)
			}
			if err != nil {
				return nil, err
			}
			v = stringType(name, v)
			if err := ev.builtCall(n, v, true, it, args[1:], kw); err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	var attr string
	if name == "selectattr" || name == "rejectattr" {
		if len(args) == 0 {
			return nil, errorf("%s requires an attribute name", name)
		}
		attr, args = Str(args[0]), args[1:]
	}
	want := name == "select" || name == "selectattr"
	out := []any{}
	for _, it := range items {
		v := it
		if attr != "" {
			v = getPath(it, attr)
		}
		var ok bool
		if len(args) == 0 {
			if u, isU := v.(*undefined); isU {
				return nil, u.err()
			}
			ok = Truthy(v)
		} else {
			test := Str(args[0])
			if u, isU := v.(*undefined); isU && pluginName(test) != "defined" && pluginName(test) != "undefined" {
				return nil, u.err()
			}
			if ok, err = runTest(ev.env(), test, true, v, args[1:], nil); err != nil {
				return nil, err
			}
		}
		if ok == want {
			out = append(out, it)
		}
	}
	return out, nil
}

// getPath is Jinja's environment.getattr along a dotted path; a missing
// step is undefined.
func getPath(v any, path string) any {
	for _, part := range strings.Split(path, ".") {
		var err error
		if i, ok := pyInt(part, 10); ok {
			v, err = getItem(v, i, path)
		} else {
			v, err = getAttr(v, part, path)
		}
		if err != nil {
			return &undefined{name: path, msg: err.Error()}
		}
	}
	return v
}

// zipStrict is zip(strict=True)'s check when list j ran out at index i:
// every list must end there, as Python's ValueError says.
func zipStrict(lists [][]any, j, i int) error {
	if j > 0 {
		return valueErrorf("zip() argument %d is shorter than argument%s 1%s", j+1, plural(j, ""), argRange(j))
	}
	for k, l := range lists[1:] {
		if len(l) > i {
			return valueErrorf("zip() argument %d is longer than argument%s 1%s", k+2, plural(k+1, ""), argRange(k+1))
		}
	}
	return nil
}

// argRange completes "argument 1" to "arguments 1-N" as Python's zip does.
func argRange(n int) string {
	if n == 1 {
		return ""
	}
	return "-" + strconv.Itoa(n)
}
