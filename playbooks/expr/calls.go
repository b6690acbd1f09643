package expr

import (
	"math/big"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/tender-sh/tender/internal/pydict"
)

func (ev *evaluator) evalCall(n *callNode) (any, error) { return ev.evalCallWith(n, nil) }

// evalCallWith calls n; a call block gives its caller as the keyword
// argument "caller". A list result counts a step an item; what the call
// built counts against the memory limit, but for a macro's output,
// which its rendering counted.
func (ev *evaluator) evalCallWith(n *callNode, caller *macro) (any, error) {
	// As Python's: the object called (a method's receiver) is evaluated
	// before the arguments.
	var callee any
	var err error
	switch fn := n.fn.(type) {
	case *nameNode:
	case *attrNode:
		// An undefined receiver fails once the arguments are evaluated
		// (Jinja's getattr of an undefined value is that value, and
		// calling it fails).
		if callee, err = ev.eval(fn.x); err != nil {
			return nil, err
		}
	default:
		if callee, err = ev.value(n.fn); err != nil {
			return nil, err
		}
	}
	// A method's arguments may be undefined: a str method refuses one
	// with Python's TypeError (call).
	_, method := n.fn.(*attrNode)
	args, kwargs, err := ev.arguments(&n.callArgs, method)
	if err != nil {
		return nil, err
	}
	if caller != nil {
		if kwargs == nil {
			kwargs = map[string]any{}
		}
		kwargs["caller"] = caller
	}
	v, recv, counted, err := ev.call(n, callee, args, kwargs)
	if err != nil {
		return nil, ev.wrap(n, err)
	}
	if l, ok := v.([]any); ok {
		if err := ev.step(len(l)); err != nil {
			return nil, err
		}
	}
	if counted {
		return v, nil
	}
	// a method of a string may build its result from the string's text
	// whole (split); a global function's (lookup's) may be a variable's
	return v, ev.builtCall(n, v, recv != nil, recv, args, kwargs)
}

// call calls n's function with args and kwargs: callee is the method's
// receiver, when n calls a method, else the function (not for a name,
// looked up here). It returns the receiver, when n calls a method, and
// whether the result was counted already (a macro's, whose rendering
// counted its output).
func (ev *evaluator) call(n *callNode, callee any, args []any, kwargs map[string]any) (v, recv any, counted bool, err error) {
	fnv := callee
	switch fn := n.fn.(type) {
	case *nameNode:
		v, defined, err := lookupIn(ev.scope, fn.name, ev.st.b)
		if err != nil || !defined {
			v, err := ev.global(fn.name, args, kwargs)
			return v, nil, false, err
		}
		fnv = v
	case *attrNode:
		recv := callee
		if u, ok := recv.(*undefined); ok {
			return nil, nil, false, ev.wrap(fn.x, u.err())
		}
		// As Python: a str method given an undefined value where it
		// takes a str raises TypeError ("... not AnsibleUndefined");
		// anything else that uses an undefined argument fails on it.
		if _, ok := text(recv); ok {
			if err := strMethodArgs(fn.name, args); err != nil {
				return nil, nil, false, err
			}
		}
		switch recv.(type) {
		case nil, bool, int, float64, *big.Int:
			// None's, a bool's or a number's method (none tender has) is
			// undefined, and calling it fails before any argument is
			// used, as Jinja's Undefined.__call__.
			v, err := callMethod(ev.st.b, recv, fn.name, args, kwargs)
			return v, recv, false, err
		}
		if err := ev.definedArgs(&n.callArgs, args, kwargs); err != nil {
			return nil, nil, false, err
		}
		if a, ok := recv.(attrHolder); ok {
			if v, ok := a.attr(fn.name); ok {
				if c, ok := v.(callable); ok {
					v, err := c.call(ev, args, kwargs)
					return v, recv, isMacro(c), err
				}
			}
		}
		if m, ok := recv.(methodHolder); ok {
			v, found, err := m.method(ev, fn.name, args, kwargs)
			if found {
				return v, recv, false, err
			}
		}
		v, err := callMethod(ev.st.b, recv, fn.name, args, kwargs)
		v = keepUnsafe(recv, unsafeMethods[fn.name], v)
		return v, recv, false, err
	}
	if c, ok := fnv.(callable); ok {
		v, err := c.call(ev, args, kwargs)
		return v, nil, isMacro(c), err
	}
	return nil, nil, false, typeErrorf("'%s' object is not callable", typeName(fnv))
}

// isMacro reports whether c is a macro (or a call block's caller).
func isMacro(c callable) bool {
	_, ok := c.(*macro)
	return ok
}

// globalFunc is a global function of templates.
type globalFunc func(ev *evaluator, args []any, kw map[string]any) (any, error)

// globalTable is every global function tender implements: Jinja's and
// the ones Ansible adds (lookup, query, q, now, undef).
func globalTable() map[string]globalFunc {
	globalsOnce.Do(func() { globals = makeGlobalTable() })
	return globals
}

var (
	globalsOnce sync.Once
	globals     map[string]globalFunc
)

func makeGlobalTable() map[string]globalFunc {
	return map[string]globalFunc{
		"lookup": func(ev *evaluator, args []any, kw map[string]any) (any, error) { return ev.lookup(args, kw, false) },
		"query":  func(ev *evaluator, args []any, kw map[string]any) (any, error) { return ev.lookup(args, kw, true) },
		"q":      func(ev *evaluator, args []any, kw map[string]any) (any, error) { return ev.lookup(args, kw, true) },
		"range":  func(_ *evaluator, args []any, _ map[string]any) (any, error) { return pyRange(args) },
		"dict": func(_ *evaluator, args []any, kw map[string]any) (any, error) {
			m, err := dictArgs(args, kw)
			if err != nil {
				return nil, err
			}
			return m, nil
		},
		"now": func(_ *evaluator, args []any, kw map[string]any) (any, error) { return now(args, kw) },
		"undef": func(_ *evaluator, args []any, kw map[string]any) (any, error) {
			hint := argOr(args, kw, 0, "hint", nil)
			if _, u := hint.(*undefined); u || hint == nil || Equal(hint, "") {
				hint = "Mandatory variable has not been overridden"
			}
			return &undefined{msg: Str(hint), hint: Str(hint)}, nil
		},
		"namespace": func(_ *evaluator, args []any, kw map[string]any) (any, error) { return newNamespace(args, kw) },
		"cycler":    func(_ *evaluator, args []any, _ map[string]any) (any, error) { return newCycler(args) },
		"joiner":    func(_ *evaluator, args []any, kw map[string]any) (any, error) { return newJoiner(args, kw) },
		"lipsum":    func(_ *evaluator, args []any, kw map[string]any) (any, error) { return lipsum(args, kw) },
	}
}

func (ev *evaluator) global(name string, args []any, kwargs map[string]any) (any, error) {
	if err := ev.env().checkPure("global", name); err != nil {
		return nil, err
	}
	if f, ok := globalTable()[name]; ok {
		return f(ev, args, kwargs)
	}
	return nil, &UndefinedError{Name: name, Msg: "'" + name + "' is undefined"}
}

// callMethod implements the Python methods of str, dict and list that
// playbooks call (x.split(','), d.items(), …), within the budget b.
func callMethod(b *budget, recv any, name string, args []any, kw map[string]any) (any, error) {
	arg := func(i int) (string, bool) {
		if i >= len(args) {
			return "", false
		}
		return text(args[i])
	}
	if s, ok := text(recv); ok {
		if err := strMethodArgs(name, args); err != nil {
			return nil, err
		}
		switch name {
		case "lower":
			return pyLower(s), nil
		case "upper":
			return pyUpper(s), nil
		case "strip", "lstrip", "rstrip":
			cut := " \t\n\r\v\f"
			if c, ok := arg(0); ok {
				cut = c
			}
			switch name {
			case "strip":
				return strings.Trim(s, cut), nil
			case "lstrip":
				return strings.TrimLeft(s, cut), nil
			}
			return strings.TrimRight(s, cut), nil
		case "split", "rsplit":
			sep, _ := arg(0)
			limit := -1
			if len(args) > 1 {
				if m, ok := integer(args[1]); ok {
					limit = m
				}
			}
			return pySplit(s, sep, limit, name == "rsplit")
		case "splitlines":
			return toList(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })), nil
		case "startswith", "endswith":
			var prefixes []any
			if len(args) > 0 {
				if l, ok := args[0].([]any); ok {
					prefixes = l
				} else {
					prefixes = args[:1]
				}
			}
			for _, p := range prefixes {
				ps, _ := text(p)
				if name == "startswith" && strings.HasPrefix(s, ps) || name == "endswith" && strings.HasSuffix(s, ps) {
					return true, nil
				}
			}
			return false, nil
		case "replace":
			old, _ := arg(0)
			repl, _ := arg(1)
			n := -1
			if len(args) > 2 {
				n, _ = integer(args[2])
			}
			return replaceText(b, s, old, repl, n)
		case "find":
			a, _ := arg(0)
			return runeIndex(s, strings.Index(s, a)), nil
		case "count":
			a, _ := arg(0)
			return strings.Count(s, a), nil
		case "join":
			if len(args) == 1 {
				return joinValues(b, args[0], s)
			}
		case "capitalize":
			return capitalize(s), nil
		case "title":
			return strings.Title(strings.ToLower(s)), //nolint:staticcheck // Python's title() has the same word rule
				nil
		case "isdigit":
			return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }) < 0, nil
		case "isalpha":
			return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) < 0, nil
		case "format":
			return braceFormat(s, args)
		}
		if v, found, err := moreStrMethod(b, s, name, args); found {
			return v, err
		}
	}
	if sc, ok := recv.(Scope); ok {
		return scopeMethod(sc, name, args)
	}
	switch t := recv.(type) {
	case map[string]any:
		switch name {
		case "keys":
			return toList(pydict.Keys(t)), nil
		case "values":
			out := []any{}
			for _, k := range pydict.Keys(t) {
				out = append(out, t[k])
			}
			return out, nil
		case "items":
			out := []any{}
			for _, k := range pydict.Keys(t) {
				out = append(out, []any{k, t[k]})
			}
			return out, nil
		case "get":
			if k, ok := arg(0); ok {
				if v, ok := t[k]; ok {
					return v, nil
				}
			}
			if len(args) > 1 {
				return args[1], nil
			}
			return nil, nil
		}
	case []any:
		switch name {
		case "index":
			for i, e := range t {
				if len(args) > 0 && Equal(e, args[0]) {
					return i, nil
				}
			}
			return nil, errorf("value is not in list")
		case "count":
			c := 0
			for _, e := range t {
				if len(args) > 0 && Equal(e, args[0]) {
					c++
				}
			}
			return c, nil
		}
	}
	// Jinja looks the method up as an attribute: a missing one is
	// undefined, and calling it fails as an undefined value does.
	return nil, &UndefinedError{Name: name, Msg: "'" + objName(recv) + "' has no attribute '" + name + "'"}
}

// strMethodArgs refuses, with Python's TypeError, an argument of a str
// method that Python takes only as a str (or None where it says so).
func strMethodArgs(name string, args []any) error {
	isText := func(i int) bool {
		_, ok := text(args[i])
		return ok
	}
	switch name {
	case "lower", "upper", "title", "capitalize", "swapcase", "casefold", "isalnum", "isalpha", "isascii",
		"isdecimal", "isdigit", "isidentifier", "islower", "isnumeric", "isprintable", "isspace", "istitle", "isupper":
		if len(args) > 0 {
			return typeErrorf("str.%s() takes no arguments (%d given)", name, len(args))
		}
	case "startswith", "endswith":
		if len(args) == 0 {
			return typeErrorf("%s() takes at least 1 argument (0 given)", name)
		}
		if _, isList := args[0].([]any); !isList && !isText(0) {
			return typeErrorf("%s first arg must be str or a tuple of str, not %s", name, typeName(args[0]))
		}
	case "strip", "lstrip", "rstrip":
		if len(args) > 0 && args[0] != nil && !isText(0) {
			return typeErrorf("%s arg must be None or str", name)
		}
	case "split", "rsplit":
		if len(args) > 0 && args[0] != nil && !isText(0) {
			return typeErrorf("must be str or None, not %s", typeName(args[0]))
		}
	case "replace":
		for i := 0; i < len(args) && i < 2; i++ {
			if !isText(i) {
				return typeErrorf("replace() argument %d must be str, not %s", i+1, typeName(args[i]))
			}
		}
	case "find", "count":
		if len(args) > 0 && !isText(0) {
			return typeErrorf("must be str, not %s", typeName(args[0]))
		}
	}
	return nil
}

func runeIndex(s string, byteIdx int) int {
	if byteIdx < 0 {
		return -1
	}
	return len([]rune(s[:byteIdx]))
}

func toList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// pySplit is str.split/rsplit: no separator splits on runs of whitespace.
func pySplit(s, sep string, limit int, fromRight bool) (any, error) {
	if sep == "" {
		f := strings.Fields(s)
		if limit >= 0 && len(f) > limit+1 {
			if fromRight {
				// keep the last limit fields separate
				head := strings.TrimRight(s, " \t\n\r\v\f")
				parts := []string{}
				for range limit {
					i := strings.LastIndexAny(head, " \t\n\r\v\f")
					parts = append(parts, head[i+1:])
					head = strings.TrimRight(head[:i], " \t\n\r\v\f")
				}
				parts = append(parts, strings.TrimLeft(head, " \t\n\r\v\f"))
				slices.Reverse(parts)
				return toList(parts), nil
			}
			rest := strings.TrimLeft(s, " \t\n\r\v\f")
			parts := []string{}
			for range limit {
				i := strings.IndexAny(rest, " \t\n\r\v\f")
				parts = append(parts, rest[:i])
				rest = strings.TrimLeft(rest[i:], " \t\n\r\v\f")
			}
			return toList(append(parts, rest)), nil
		}
		return toList(f), nil
	}
	if fromRight && limit >= 0 {
		parts := []string{}
		for range limit {
			i := strings.LastIndex(s, sep)
			if i < 0 {
				break
			}
			parts = append(parts, s[i+len(sep):])
			s = s[:i]
		}
		parts = append(parts, s)
		slices.Reverse(parts)
		return toList(parts), nil
	}
	n := -1
	if limit >= 0 {
		n = limit + 1
	}
	return toList(strings.SplitN(s, sep, n)), nil
}

// braceFormat is a small str.format: {} and {0} positional fields.
func braceFormat(s string, args []any) (any, error) {
	var b strings.Builder
	next := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '{' && i+1 < len(s) && s[i+1] == '{' || c == '}' && i+1 < len(s) && s[i+1] == '}' {
			b.WriteByte(c)
			i++
			continue
		}
		if c != '{' {
			b.WriteByte(c)
			continue
		}
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			return nil, errorf("Single '{' encountered in format string")
		}
		field := s[i+1 : i+end]
		idx := next
		if field != "" {
			v, ok := integer(mustInt(field))
			if !ok {
				return nil, errorf("unsupported format field '%s'", field)
			}
			idx = v
		} else {
			next++
		}
		if idx < 0 || idx >= len(args) {
			return nil, errorf("Replacement index %d out of range for positional args tuple", idx)
		}
		b.WriteString(Str(args[idx]))
		i += end
	}
	return b.String(), nil
}

func mustInt(s string) any {
	n := 0
	for _, c := range []byte(s) {
		if !isDigit(c) || n > maxSize {
			return nil
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// scopeMethod is a dict method on a Scope stored as a value (hostvars, a
// host's variables in it): get looks one name up, without resolving the
// others; keys, values and items need the scope to be Keyed and follow its
// Keys order.
func scopeMethod(sc Scope, name string, args []any) (any, error) {
	if name == "get" && len(args) > 0 && len(args) <= 2 {
		if k, ok := text(args[0]); ok {
			v, found, err := sc.Lookup(k)
			if err != nil || found {
				return v, err
			}
		}
		if len(args) > 1 {
			return args[1], nil
		}
		return nil, nil
	}
	k, keyed := sc.(Keyed)
	if !keyed || (name != "keys" && name != "values" && name != "items") {
		return nil, errorf("'%s' object has no attribute '%s'", typeName(sc), name)
	}
	out := []any{}
	for _, key := range k.Keys() {
		if name == "keys" {
			out = append(out, key)
			continue
		}
		v, found, err := sc.Lookup(key)
		if err != nil {
			return nil, err
		}
		if !found {
			continue
		}
		if name == "values" {
			out = append(out, v)
		} else {
			out = append(out, []any{key, v})
		}
	}
	return out, nil
}
