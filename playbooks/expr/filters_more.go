package expr

import (
	"github.com/tender-sh/tender/internal/pyre"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
)

// moreFilters are Jinja's and Ansible's smaller filters that templates for
// configuration files lean on.
var moreFilters = map[string]filterFunc{
	"reverse": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		if s, ok := text(x); ok {
			r := []rune(s)
			for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
				r[i], r[j] = r[j], r[i]
			}
			return string(r), nil
		}
		items, err := iterate(x)
		if IsTypeError(err) {
			// Jinja's filter turns the TypeError into its own error.
			return nil, &pyError{msg: "argument must be iterable", exc: "jinja2.exceptions.FilterArgumentError"}
		}
		if err != nil {
			return nil, err
		}
		out := make([]any, len(items))
		for i, it := range items {
			out[len(items)-1-i] = it
		}
		return out, nil
	},
	"indent": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		width := argOr(args, kw, 0, "width", 4)
		ind, ok := text(width)
		if !ok {
			n, _ := integer(width)
			if n < 0 || n > 1000 {
				return nil, errorf("indent width out of range")
			}
			ind = strings.Repeat(" ", n)
		}
		first := Truthy(argOr(args, kw, 1, "first", false))
		blank := Truthy(argOr(args, kw, 2, "blank", false))
		lines := splitLines(Str(x) + "\n")
		// every line but the first gets ind, an empty one only with
		// blank; the first with first
		size, indented := 0, 0
		for i, l := range lines {
			size += len(l) + 1
			if i == 0 && first || i > 0 && (blank || l != "") {
				indented++
			}
		}
		if size+indented*len(ind) > maxSize {
			return nil, errorf("indented string too large")
		}
		var rv strings.Builder
		rv.Grow(size + indented*len(ind))
		for i, l := range lines {
			if i > 0 {
				rv.WriteByte('\n')
			}
			if i == 0 && first || i > 0 && (blank || l != "") {
				rv.WriteString(ind)
			}
			rv.WriteString(l)
		}
		return rv.String(), nil
	},
	"dictsort": func(env *Env, x any, args []any, kw map[string]any) (any, error) {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, errorf("dictsort requires a dict")
		}
		cs := Truthy(argOr(args, kw, 0, "case_sensitive", false))
		byValue := Str(argOr(args, kw, 1, "by", "key")) == "value"
		rev := Truthy(argOr(args, kw, 2, "reverse", false))
		pairs := []any{}
		for _, k := range pydict.Keys(m) {
			pairs = append(pairs, []any{k, m[k]})
		}
		i := 0
		if byValue {
			i = 1
		}
		return sortBy(budgetOf(env), pairs, func(p any) any { return sortKey(p.([]any)[i], cs) }, rev)
	},
	"items": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, errorf("Can only get item pairs from a mapping.")
		}
		pairs := []any{}
		for _, k := range pydict.Keys(m) {
			pairs = append(pairs, []any{k, m[k]})
		}
		return pairs, nil
	},
	"regex_escape": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		// re_type python is Python's re.escape; posix_basic escapes the
		// special characters of a POSIX basic regular expression.
		var special string
		switch rt := strArg(args, kw, 0, "re_type", "python"); rt {
		case "python":
			return pyre.Escape(Str(x)), nil
		case "posix_basic":
			special = "].[^$*\\"
		case "posix_extended":
			return nil, errorf("Regex type (%s) not yet implemented", rt)
		default:
			return nil, errorf("Invalid regex type (%s)", rt)
		}
		var b strings.Builder
		for _, r := range Str(x) {
			if strings.ContainsRune(special, r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		return b.String(), nil
	},
	"path_join": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		if s, ok := text(x); ok {
			return s, nil
		}
		parts, ok := x.([]any)
		if !ok {
			return nil, errorf("|path_join expects string or sequence, got <class '%s'> instead.", typeName(x))
		}
		// the parts after the last absolute one, joined by "/" where
		// one does not end with it
		strs := make([]string, len(parts))
		start := 0
		for i, p := range parts {
			if strs[i] = Str(p); strings.HasPrefix(strs[i], "/") {
				start = i
			}
		}
		size := 0
		for _, s := range strs[start:] {
			size += len(s) + 1
		}
		if size > maxSize {
			return nil, errorf("joined path too large")
		}
		var out strings.Builder
		out.Grow(size)
		for _, s := range strs[start:] {
			if out.Len() > 0 && !strings.HasSuffix(out.String(), "/") {
				out.WriteByte('/')
			}
			out.WriteString(s)
		}
		return out.String(), nil
	},
	"splitext": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		p := Str(x)
		base := filepath.Base(p)
		ext := filepath.Ext(p)
		if ext == base || strings.Trim(base, ".") == "" || strings.HasPrefix(base, ".") && strings.Count(base, ".") == 1 {
			ext = ""
		}
		if ext == "" {
			// Python's splitext gives the path itself back: a string
			// to_json made stays one that is not read as a literal.
			return []any{x, ""}, nil
		}
		return []any{p[:len(p)-len(ext)], ext}, nil
	},
	"extract": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		container := argOr(args, kw, 0, "container", nil)
		if u, ok := container.(*undefined); ok {
			return u, nil
		}
		more := argOr(args, kw, 1, "morekeys", nil)
		if u, ok := more.(*undefined); ok {
			return nil, u.err()
		}
		v, err := getItem(container, x, Str(x))
		if err != nil {
			return nil, err
		}
		keys, ok := more.([]any)
		if !ok && more != nil {
			keys = []any{more}
		}
		for _, k := range keys {
			if v, err = getItem(v, k, Str(k)); err != nil {
				return nil, err
			}
		}
		return v, nil
	},
	"wordcount": func(env *Env, x any, _ []any, _ map[string]any) (any, error) {
		return countMatches(budgetOf(env), wordRE, Str(x))
	},
}

// wordRE is Jinja's _word_re: Python's \w+.
var wordRE = pyre.MustCompile(`\w+`, pyre.Options{})

// splitLines is Python's str.splitlines for \n, \r\n and \r.
func splitLines(s string) []string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(s, "\n")
	if len(lines) > 1 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

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
