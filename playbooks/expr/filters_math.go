package expr

import (
	"math"
	"regexp"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
)

// mathFilter is log(base=e), pow(y) or root(base=2), as Python's math
// module computes them (the result is a float).
func mathFilter(name string) filterFunc {
	return func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		if !isNumber(x) {
			return nil, typeErrorf("%s() can only be used on numbers: must be real number, not %s", name, typeName(x))
		}
		if name == "log" {
			base := argOr(args, kw, 0, "base", math.E)
			if !isNumber(base) {
				return nil, typeErrorf("log() can only be used on numbers: must be real number, not %s", typeName(base))
			}
			if nonPositive(x) || nonPositive(base) || Equal(base, 1) {
				if Equal(base, 1) {
					return nil, zeroDivision("float division by zero")
				}
				return nil, errorf("math domain error")
			}
			if Equal(base, 10) {
				return logOf(x, pyLog10), nil
			}
			return logOf(x, pyLog) / logOf(base, pyLog), nil
		}
		// math.pow and math.sqrt take floats: a larger integer fails
		f, err := floatOf(x)
		if err != nil {
			return nil, err
		}
		switch name {
		case "pow":
			yv := argOr(args, kw, 0, "y", nil)
			if len(args) < 1 && kw["y"] == nil {
				return nil, typeErrorf("power() missing 1 required positional argument: 'y'")
			}
			if !isNumber(yv) {
				return nil, typeErrorf("pow() can only be used on numbers: must be real number, not %s", typeName(yv))
			}
			y, err := floatOf(yv)
			if err != nil {
				return nil, err
			}
			if f == 0 && y < 0 || f < 0 && y != math.Trunc(y) {
				return nil, errorf("math domain error")
			}
			r := pyPow(f, y)
			if math.IsInf(r, 0) && !math.IsInf(f, 0) {
				return nil, errorf("math range error")
			}
			return r, nil
		}
		base := argOr(args, kw, 0, "base", 2)
		if !isNumber(base) {
			return nil, typeErrorf("root() can only be used on numbers: must be real number, not %s", typeName(base))
		}
		b, err := floatOf(base)
		if err != nil {
			return nil, err
		}
		if Equal(base, 2) {
			if f < 0 {
				return nil, typeErrorf("root() can only be used on numbers: math domain error")
			}
			return math.Sqrt(f), nil
		}
		if b == 0 {
			return nil, zeroDivision("float division by zero")
		}
		if f < 0 && 1/b != math.Trunc(1/b) {
			return nil, typeErrorf("root() can only be used on numbers: math domain error")
		}
		return pyPow(f, 1/b), nil
	}
}

// combinatorics bounds the lists product, permutations and combinations
// build.
func tooMany(n float64) error {
	if n > maxItems {
		return errorf("too many combinations (more than %d)", maxItems)
	}
	return nil
}

// fProduct is itertools.product(x, *lists, repeat=1).
func fProduct(_ *Env, x any, args []any, kw map[string]any) (any, error) {
	var pools [][]any
	for _, v := range append([]any{x}, args...) {
		items, err := iterate(v)
		if err != nil {
			return nil, err
		}
		pools = append(pools, items)
	}
	repeat := 1
	if r, ok := kw["repeat"]; ok {
		n, isInt := integer(r)
		if !isInt || n < 0 {
			return nil, valueErrorf("repeat argument cannot be negative")
		}
		repeat = n
	}
	var all [][]any
	total := 1.0
	for range repeat {
		all = append(all, pools...)
		for _, p := range pools {
			total *= float64(len(p))
		}
		if err := tooMany(total); err != nil {
			return nil, err
		}
	}
	out := []any{[]any{}}
	for _, pool := range all {
		var next []any
		for _, prefix := range out {
			for _, it := range pool {
				row := append(append([]any{}, prefix.([]any)...), it)
				next = append(next, row)
			}
		}
		out = next
	}
	if out == nil {
		out = []any{}
	}
	return out, nil
}

// fPermutations is itertools.permutations(x, r=None).
func fPermutations(_ *Env, x any, args []any, kw map[string]any) (any, error) {
	items, err := iterate(x)
	if err != nil {
		return nil, err
	}
	r := len(items)
	if v := argOr(args, kw, 0, "r", nil); v != nil {
		n, ok := integer(v)
		if !ok {
			return nil, typeErrorf("Expected int as r")
		}
		if n < 0 {
			return nil, valueErrorf("r must be non-negative")
		}
		r = n
	}
	if r > len(items) {
		return []any{}, nil
	}
	count := 1.0
	for i := 0; i < r; i++ {
		count *= float64(len(items) - i)
	}
	if err := tooMany(count); err != nil {
		return nil, err
	}
	out := []any{}
	used := make([]bool, len(items))
	var cur []any
	var rec func()
	rec = func() {
		if len(cur) == r {
			out = append(out, append([]any{}, cur...))
			return
		}
		for i, it := range items {
			if !used[i] {
				used[i] = true
				cur = append(cur, it)
				rec()
				cur = cur[:len(cur)-1]
				used[i] = false
			}
		}
	}
	rec()
	return out, nil
}

// fCombinations is itertools.combinations(x, r).
func fCombinations(_ *Env, x any, args []any, kw map[string]any) (any, error) {
	items, err := iterate(x)
	if err != nil {
		return nil, err
	}
	v := argOr(args, kw, 0, "r", nil)
	if v == nil {
		return nil, errorf("combinations() missing required argument 'r' (pos 2)")
	}
	r, ok := integer(v)
	if !ok {
		return nil, typeErrorf("'%s' object cannot be interpreted as an integer", typeName(v))
	}
	if r < 0 {
		return nil, valueErrorf("r must be non-negative")
	}
	if r > len(items) {
		return []any{}, nil
	}
	count := 1.0
	for i := 0; i < r; i++ {
		count = count * float64(len(items)-i) / float64(i+1)
	}
	if err := tooMany(count); err != nil {
		return nil, err
	}
	out := []any{}
	var cur []any
	var rec func(start int)
	rec = func(start int) {
		if len(cur) == r {
			out = append(out, append([]any{}, cur...))
			return
		}
		// only where enough items are left to fill cur: trying the others
		// would take exponential time for nothing
		for i := start; i <= len(items)-(r-len(cur)); i++ {
			cur = append(cur, items[i])
			rec(i + 1)
			cur = cur[:len(cur)-1]
		}
	}
	rec(0)
	return out, nil
}

var sizeRanges = []struct {
	suffix string
	limit  float64
}{{"Y", 1 << 80}, {"Z", 1 << 70}, {"E", 1 << 60}, {"P", 1 << 50}, {"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}}

// fHumanReadable is human_readable(isbits=False, unit=None).
func fHumanReadable(_ *Env, x any, args []any, kw map[string]any) (any, error) {
	if !isNumber(x) {
		return nil, typeErrorf("human_readable() failed on bad input: '>=' not supported between instances of '%s' and 'int'", typeName(x))
	}
	size, err := floatOf(x)
	if err != nil {
		return nil, err
	}
	isbits := Truthy(argOr(args, kw, 0, "isbits", false))
	unit := argOr(args, kw, 1, "unit", nil)
	base := "Bytes"
	if isbits {
		base = "bits"
	}
	var suffix string
	var limit float64
	for _, r := range sizeRanges {
		suffix, limit = r.suffix, r.limit
		if unit == nil && size >= limit || unit != nil && strings.ToUpper(Str(unit)) == suffix {
			break
		}
	}
	if limit != 1 {
		suffix += base[:1]
	} else {
		suffix = base
	}
	return formatFixed(size/limit, 2) + " " + suffix, nil
}

var humanSizeRE = regexp.MustCompile(`^[` + pyWS + `]*([0-9]*\.?[0-9]*)[` + pyWS + `]*([A-Za-z]+)?`)

// fHumanToBytes is human_to_bytes(default_unit=None, isbits=False).
func fHumanToBytes(_ *Env, x any, args []any, kw map[string]any) (any, error) {
	s := Str(x)
	m := humanSizeRE.FindStringSubmatch(s)
	num, ok := pyFloat(m[1])
	if !ok {
		return nil, errorf("human_to_bytes() can't interpret following string: %s", s)
	}
	unit := m[2]
	if unit == "" {
		if d := argOr(args, kw, 0, "default_unit", nil); d != nil {
			unit = Str(d)
		}
	}
	if unit == "" {
		return intOfFloat(math.RoundToEven(num))
	}
	key := strings.ToUpper(unit[:1])
	limit := 0.0
	for _, r := range sizeRanges {
		if r.suffix == key {
			limit = r.limit
		}
	}
	if limit == 0 {
		return nil, errorf("human_to_bytes() can't interpret following string: %s", s)
	}
	class, className := "B", "byte"
	if Truthy(argOr(args, kw, 1, "isbits", false)) {
		class, className = "b", "bit"
	}
	if len(unit) > 1 && !strings.Contains(strings.ToLower(unit), className) && unit[1:2] != class {
		return nil, errorf("human_to_bytes() can't interpret following string: %s", s)
	}
	return intOfFloat(math.RoundToEven(num * limit))
}

// fRekeyOnMember is rekey_on_member(key, duplicates='error').
func fRekeyOnMember(_ *Env, x any, args []any, kw map[string]any) (any, error) {
	key := argOr(args, kw, 0, "key", nil)
	dup := strArg(args, kw, 1, "duplicates", "error")
	if dup != "error" && dup != "overwrite" {
		return nil, errorf("duplicates parameter to rekey_on_member has unknown value: %s", dup)
	}
	items, ok := listOrValues(x)
	if !ok {
		return nil, errorf("Type is not a valid list, set, or dict")
	}
	out := pydict.NewBuilder(len(items))
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return nil, errorf("List item is not a valid dict")
		}
		kv, ok := m[Str(key)]
		if !ok {
			return nil, errorf("Key %s was not found", Str(key))
		}
		k := Str(kv)
		if old, exists := out.Get(k); exists && Truthy(old) && dup == "error" {
			return nil, errorf("Key %s is not unique, cannot correctly turn into dict", k)
		}
		out.Set(k, it)
	}
	return out.Map(), nil
}

// fZipLongest is itertools.zip_longest(x, *lists, fillvalue=None).
func fZipLongest(_ *Env, x any, args []any, kw map[string]any) (any, error) {
	var lists [][]any
	longest := 0
	for _, v := range append([]any{x}, args...) {
		l, err := iterate(v)
		if err != nil {
			return nil, err
		}
		lists = append(lists, l)
		longest = max(longest, len(l))
	}
	fill := kw["fillvalue"]
	out := make([]any, longest)
	for i := range out {
		row := make([]any, len(lists))
		for j, l := range lists {
			row[j] = fill
			if i < len(l) {
				row[j] = l[i]
			}
		}
		out[i] = row
	}
	return out, nil
}

var commentStyles = map[string]map[string]any{
	"plain":  {"decoration": "# "},
	"erlang": {"decoration": "% "},
	"c":      {"decoration": "// "},
	"cblock": {"beginning": "/*", "decoration": " * ", "end": " */"},
	"xml":    {"beginning": "<!--", "decoration": " - ", "end": "-->"},
}

// fComment is comment(style='plain', **kw): the text as a comment block
// in the style, with its parameters (beginning, prefix, prefix_count,
// decoration, postfix, postfix_count, end, newline) overridable.
func fComment(_ *Env, x any, args []any, kw map[string]any) (any, error) {
	style := strArg(args, kw, 0, "style", "plain")
	sp, ok := commentStyles[style]
	if !ok {
		return nil, errorf("KeyError: '%s'", style)
	}
	pre := Str(sp["decoration"])
	if d, ok := kw["decoration"]; ok {
		pre = Str(d)
	}
	p := map[string]any{"newline": "\n", "beginning": "", "prefix": strings.TrimRight(pre, " \t\n\r\f\v"), "prefix_count": 1,
		"decoration": "", "postfix": strings.TrimRight(pre, " \t\n\r\f\v"), "postfix_count": 1, "end": ""}
	for k, v := range sp {
		p[k] = v
	}
	for k, v := range kw {
		if k != "style" {
			p[k] = v
		}
	}
	nl, dec := Str(p["newline"]), Str(p["decoration"])
	count := func(k string) (int, error) {
		v := p[k]
		n, ok := integer(v)
		if s, isText := text(v); isText {
			n, ok = pyInt(s, 10)
		}
		if !ok || n > 1000 {
			return 0, errorf("invalid %s: %s", k, Repr(v))
		}
		return n, nil
	}
	var b strings.Builder
	if s := Str(p["beginning"]); Truthy(p["beginning"]) {
		b.WriteString(s + nl)
	}
	pc, err := count("prefix_count")
	if err != nil {
		return nil, err
	}
	if Truthy(p["prefix"]) {
		unit := Str(p["prefix"]) + nl
		if Str(p["prefix"]) == nl {
			unit = nl
		}
		b.WriteString(strings.Repeat(unit, max(pc, 0)))
	}
	body := dec + strings.ReplaceAll(Str(x), nl, nl+dec)
	b.WriteString(strings.ReplaceAll(body, dec+nl, strings.TrimRight(dec, " \t\n\r\f\v")+nl))
	qc, err := count("postfix_count")
	if err != nil {
		return nil, err
	}
	for range max(qc, 0) {
		b.WriteString(nl + Str(p["postfix"]))
	}
	if Truthy(p["end"]) {
		b.WriteString(nl + Str(p["end"]))
	}
	return b.String(), nil
}

// listOrValues returns a list as it is and a dict's values in key order;
// ok is false for anything else.
func listOrValues(x any) (items []any, ok bool) {
	switch t := x.(type) {
	case map[string]any:
		for _, k := range pydict.Keys(t) {
			items = append(items, t[k])
		}
		return items, true
	case []any:
		return t, true
	}
	return nil, false
}

// fSubelements is the subelements filter: (item, subitem) pairs for each
// item of a list (or dict's values) and each element of its sub-list.
func fSubelements(_ *Env, x any, args []any, kw map[string]any) (any, error) {
	items, ok := listOrValues(x)
	if !ok {
		return nil, errorf("obj must be a list of dicts or a nested dict")
	}
	var path []any
	switch s := argOr(args, kw, 0, "subelements", nil).(type) {
	case []any:
		path = s
	case string:
		path = toList(strings.Split(s, "."))
	default:
		return nil, errorf("subelements must be a list or a string")
	}
	skip := Truthy(argOr(args, kw, 1, "skip_missing", false))
	out := []any{}
	for _, it := range items {
		values := it
		var last any
		for _, sub := range path {
			last = sub
			m, ok := values.(map[string]any)
			if !ok {
				return nil, errorf("the key %s should point to a dictionary, got '%s'", Str(sub), Str(values))
			}
			v, ok := m[Str(sub)]
			if !ok {
				if skip {
					values = []any{}
					break
				}
				return nil, errorf("could not find %s key in iterated item %s", Repr(sub), Repr(values))
			}
			values = v
		}
		l, ok := values.([]any)
		if !ok {
			return nil, errorf("the key %s should point to a list, got %s", Repr(last), Repr(values))
		}
		for _, v := range l {
			out = append(out, []any{it, v})
		}
	}
	return out, nil
}
