package expr

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/internal/pyre"
)

// jinjaFilters are Jinja2's built-in filters beyond the common ones.
var jinjaFilters = map[string]filterFunc{
	"attr": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		name := strArg(args, kw, 0, "name", "")
		if a, ok := x.(attrHolder); ok {
			if v, ok := a.attr(name); ok {
				return v, nil
			}
		}
		// a dict's keys are not attributes; Python's methods are values
		// tender has no use for
		return &undefined{name: name, msg: fmt.Sprintf("'%s' has no attribute '%s'", objName(x), name), obj: x, hasObj: true, key: name}, nil
	},
	"batch": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		items, err := iterate(x)
		if err != nil {
			return nil, err
		}
		n, ok := integer(argOr(args, kw, 0, "linecount", nil))
		if !ok {
			return nil, errorf("batch needs an integer linecount")
		}
		fill := argOr(args, kw, 1, "fill_with", nil)
		out := []any{}
		row := []any{}
		for _, it := range items {
			if len(row) == n {
				out = append(out, row)
				row = []any{}
			}
			row = append(row, it)
		}
		if len(row) > 0 {
			for fill != nil && len(row) < n && len(row) < maxItems {
				row = append(row, fill)
			}
			out = append(out, row)
		}
		return out, nil
	},
	"slice": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		items, err := iterate(x)
		if err != nil {
			return nil, err
		}
		n, ok := integer(argOr(args, kw, 0, "slices", nil))
		if !ok || n <= 0 || n > maxItems {
			return nil, errorf("slice needs a positive number of slices")
		}
		fill := argOr(args, kw, 1, "fill_with", nil)
		per, extra := len(items)/n, len(items)%n
		out := []any{}
		offset := 0
		for i := 0; i < n; i++ {
			start := offset + i*per
			if i < extra {
				offset++
			}
			end := offset + (i+1)*per
			row := append([]any{}, items[start:end]...)
			if fill != nil && i >= extra {
				row = append(row, fill)
			}
			out = append(out, row)
		}
		return out, nil
	},
	"center": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		width, ok := integer(argOr(args, kw, 0, "width", 80))
		if !ok || width > maxSize {
			return nil, errorf("center needs an integer width")
		}
		s := Str(x)
		n := utf8.RuneCountInString(s)
		if width <= n {
			return keepMarkup(x, s), nil
		}
		pad := width - n
		left := pad / 2
		if pad%2 == 1 && width%2 == 1 {
			left++
		}
		return keepMarkup(x, strings.Repeat(" ", left)+s+strings.Repeat(" ", pad-left)), nil
	},
	"e":           func(_ *Env, x any, _ []any, _ map[string]any) (any, error) { return escapeHTML(x), nil },
	"escape":      func(_ *Env, x any, _ []any, _ map[string]any) (any, error) { return escapeHTML(x), nil },
	"forceescape": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) { return escapeHTML(Str(x)), nil },
	"safe":        func(_ *Env, x any, _ []any, _ map[string]any) (any, error) { return markup(Str(x)), nil },
	"filesizeformat": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		b, ok := number(x)
		if s, isText := text(x); isText {
			b, ok = pyFloat(s)
		} else if ok {
			var err error
			if b, err = floatOf(x); err != nil {
				return nil, err
			}
		}
		if !ok {
			return nil, errorf("float() argument must be a string or a real number, not '%s'", typeName(x))
		}
		binary := Truthy(argOr(args, kw, 0, "binary", false))
		base := 1000.0
		prefixes := []string{"kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"}
		if binary {
			base = 1024
			prefixes = []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"}
		}
		switch {
		case b == 1:
			return "1 Byte", nil
		case b < base:
			return fmt.Sprintf("%d Bytes", int(b)), nil
		}
		unit := base
		for _, p := range prefixes {
			unit *= base
			if b < unit {
				return formatFixed(base*b/unit, 1) + " " + p, nil
			}
		}
		return formatFixed(base*b/unit, 1) + " " + prefixes[len(prefixes)-1], nil
	},
	"striptags": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		s := stripComments.ReplaceAllString(Str(x), "")
		s = stripTags.ReplaceAllString(s, "")
		return html.UnescapeString(strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")), nil
	},
	"tojson": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		indent := -1
		if v := argOr(args, kw, 0, "indent", nil); v != nil {
			indent, _ = integer(v)
		}
		s, err := toJSON(x, indent)
		if err != nil {
			return nil, err
		}
		return markup(strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`, "'", `\u0027`).Replace(s)), nil
	},
	"truncate": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		length, ok1 := integer(argOr(args, kw, 0, "length", 255))
		killwords := Truthy(argOr(args, kw, 1, "killwords", false))
		end := strArg(args, kw, 2, "end", "...")
		leeway, ok2 := integer(argOr(args, kw, 3, "leeway", 5))
		if !ok1 || !ok2 {
			return nil, errorf("truncate needs integers for length and leeway")
		}
		r := []rune(Str(x))
		endLen := utf8.RuneCountInString(end)
		if length < endLen {
			return nil, errorf("expected length >= %d, got %d", endLen, length)
		}
		if leeway < 0 {
			return nil, errorf("expected leeway >= 0, got %d", leeway)
		}
		if len(r) <= length+leeway {
			return string(r), nil
		}
		head := string(r[:length-endLen])
		if !killwords {
			if i := strings.LastIndexByte(head, ' '); i >= 0 {
				head = head[:i]
			}
		}
		return head + end, nil
	},
	"urlencode": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		switch t := x.(type) {
		case map[string]any:
			var parts []string
			for _, k := range pydict.Keys(t) {
				parts = append(parts, urlQuote(k, true)+"="+urlQuote(Str(t[k]), true))
			}
			return strings.Join(parts, "&"), nil
		case []any:
			var parts []string
			for _, it := range t {
				pair, err := iterate(it)
				if err != nil || len(pair) != 2 {
					return nil, errorf("urlencode needs a dict or (key, value) pairs")
				}
				parts = append(parts, urlQuote(Str(pair[0]), true)+"="+urlQuote(Str(pair[1]), true))
			}
			return strings.Join(parts, "&"), nil
		}
		return urlQuote(Str(x), false), nil
	},
	"wordwrap": fWordwrap,
	"urlize":   fURLize,
	"xmlattr": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, errorf("xmlattr needs a dict, got %s", typeName(x))
		}
		var items []string
		for _, k := range pydict.Keys(m) {
			if m[k] == nil {
				continue
			}
			if badAttrKey.MatchString(k) {
				return nil, errorf("Invalid character in attribute name: %s", Repr(k))
			}
			items = append(items, string(escapeHTML(k))+`="`+string(escapeHTML(m[k]))+`"`)
		}
		rv := strings.Join(items, " ")
		if Truthy(argOr(args, kw, 0, "autospace", true)) && rv != "" {
			rv = " " + rv
		}
		return rv, nil
	},
	"groupby": fGroupby,
	"pprint": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		return pformat(x), nil
	},
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
		if k, keyed := x.(Keyed); keyed {
			var err error
			if m, err = materialize(k); err != nil {
				return nil, err
			}
			ok = true
		}
		if !ok {
			return nil, errorf("dictsort requires a dict")
		}
		cs := Truthy(argOr(args, kw, 0, "case_sensitive", false))
		by := Str(argOr(args, kw, 1, "by", "key"))
		if by != "key" && by != "value" {
			return nil, &pyError{msg: `You can only sort by either "key" or "value"`, exc: "jinja2.exceptions.FilterArgumentError"}
		}
		byValue := by == "value"
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
		if _, u := x.(*undefined); u {
			// Jinja's items yields nothing for an undefined value
			return []any{}, nil
		}
		m, ok := x.(map[string]any)
		if k, keyed := x.(Keyed); keyed {
			var err error
			if m, err = materialize(k); err != nil {
				return nil, err
			}
			ok = true
		}
		if !ok {
			return nil, typeErrorf("Can only get item pairs from a mapping.")
		}
		pairs := []any{}
		for _, k := range pydict.Keys(m) {
			pairs = append(pairs, []any{k, m[k]})
		}
		return pairs, nil
	},
	"wordcount": func(env *Env, x any, _ []any, _ map[string]any) (any, error) {
		return countMatches(budgetOf(env), wordRE, Str(x))
	},
}

var (
	stripComments = regexp.MustCompile(`(?s)<!--.*?-->`)
	stripTags     = regexp.MustCompile(`(?s)<.*?>`)
	badAttrKey    = regexp.MustCompile(`[\s/>=]`)
)

// keepMarkup returns s as Markup when x was Markup (Python's str methods
// on Markup keep the type).
func keepMarkup(x any, s string) any {
	if _, ok := x.(markup); ok {
		return markup(s)
	}
	return s
}

// formatFixed is Python's format(f, ".Nf").
func formatFixed(f float64, prec int) string {
	return fmt.Sprintf("%.*f", prec, f)
}

// urlQuote is urllib.parse.quote (safe="/" unless forQS, which also turns
// spaces into +).
func urlQuote(s string, forQS bool) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		switch {
		case isLetter(c) || isDigit(c) || strings.IndexByte("_.-~", c) >= 0 || c == '/' && !forQS:
			b.WriteByte(c)
		case c == ' ' && forQS:
			b.WriteByte('+')
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// groupTuple is one group of groupby: a (grouper, list) tuple whose parts
// are also the attributes grouper and list.
type groupTuple struct {
	key   any
	items []any
}

func (g *groupTuple) attr(name string) (any, bool) {
	switch name {
	case "grouper":
		return g.key, true
	case "list":
		return g.items, true
	}
	return nil, false
}
func (g *groupTuple) list() []any      { return []any{g.key, g.items} }
func (g *groupTuple) str() string      { return "(" + Repr(g.key) + ", " + Repr(g.items) + ")" }
func (g *groupTuple) repr() string     { return g.str() }
func (g *groupTuple) typeName() string { return "_GroupTuple" }

// fGroupby is groupby(attribute, default=None, case_sensitive=False): the
// items sorted by the attribute and grouped on equal values.
func fGroupby(env *Env, x any, args []any, kw map[string]any) (any, error) {
	items, err := iterate(x)
	if err != nil {
		return nil, err
	}
	attr := argOr(args, kw, 0, "attribute", nil)
	if attr == nil {
		return nil, errorf("groupby needs an attribute")
	}
	def := argOr(args, kw, 1, "default", nil)
	cs := Truthy(argOr(args, kw, 2, "case_sensitive", false))
	key := func(it any) any {
		v := getPath(it, Str(attr))
		if _, u := v.(*undefined); u && def != nil {
			return def
		}
		return v
	}
	for _, it := range items {
		// without a default, an item lacking the attribute fails
		if u, ok := key(it).(*undefined); ok {
			return nil, u.err()
		}
	}
	sorted, err := sortBy(budgetOf(env), items, func(it any) any { return sortKey(key(it), cs) }, false)
	if err != nil {
		return nil, err
	}
	out := []any{}
	var cur *groupTuple
	for _, it := range sorted {
		k := key(it)
		if cur != nil && Equal(sortKey(cur.key, cs), sortKey(k, cs)) {
			cur.items = append(cur.items, it)
			continue
		}
		cur = &groupTuple{key: k, items: []any{it}}
		out = append(out, cur)
	}
	return out, nil
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
