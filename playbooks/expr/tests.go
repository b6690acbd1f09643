package expr

import (
	"sync"
	"unicode"

	"github.com/tender-sh/tender/internal/fqcn"
)

// evalTest evaluates `x is [not] name(args)`.
func (ev *evaluator) evalTest(n *testNode) (any, error) {
	name := pluginName(n.name)
	onUndef, safe := onUndefined[name]
	x, args, kwargs, err := ev.operands(n.x, name == "defined" || name == "undefined" || safe, &n.callArgs, false)
	if err != nil {
		return nil, err
	}
	if _, undef := x.(*undefined); undef && safe {
		if err := checkSignature("test", name, 1+len(args), kwargs); err != nil {
			return nil, err
		}
		return onUndef != n.negate, nil
	}
	ok, err := runTest(ev.env(), n.name, false, x, args, kwargs)
	if err != nil {
		return nil, err
	}
	return ok != n.negate, nil
}

// onUndefined are the tests that do not touch the value they test
// (Python's isinstance, is, callable, hasattr, or len inside a try), with
// what each gives for an undefined one: Jinja runs them on Ansible's
// undefined without failing (`nope is string` is false, `nope is
// callable` true). Any other test of an undefined value fails on it.
var onUndefined = map[string]bool{
	"string": false, "number": false, "mapping": false, "boolean": false,
	"integer": false, "float": false, "none": false, "true": false,
	"false": false, "sameas": false, "sequence": false,
	"callable": true, "escaped": true,
}

// argOr returns the i-th positional argument, else the keyword argument
// key, else def.
func argOr(args []any, kwargs map[string]any, i int, key string, def any) any {
	if i < len(args) {
		return args[i]
	}
	if v, ok := kwargs[key]; ok {
		return v
	}
	return def
}

// oneArg is a test's one argument, given by position or by its keyword
// key ("" for a test whose function takes none by keyword).
func oneArg(name string, args []any, kw map[string]any, key string) (any, error) {
	if len(args) > 0 {
		return args[0], nil
	}
	if v, ok := kw[key]; ok && key != "" {
		return v, nil
	}
	return nil, needArgs(name, args, 1)
}

func needArgs(name string, args []any, n int) error {
	if len(args) < n {
		return errorf("test '%s' requires %d argument(s)", name, n)
	}
	return nil
}

// testFunc is a test: x is the value tested, args and kw its arguments.
type testFunc func(x any, args []any, kw map[string]any) (bool, error)

// runTest runs the test named name (as written: ansible.builtin. or
// ansible.legacy. may lead it); dynamic says the name was given as a
// string (select's), which changes the error for a name not found.
func runTest(env *Env, written string, dynamic bool, x any, args []any, kwargs map[string]any) (bool, error) {
	name := pluginName(written)
	t, ok := testOf(name)
	if !ok {
		if pt, ok := env.pluginTest(name); ok {
			if err := env.checkPure("plugin", name); err != nil {
				return false, err
			}
			return pt(x, args, kwargs)
		}
		if why := refusedReason("test", name); why != "" {
			return false, errorf("the test '%s' is not supported by tender: %s", name, why)
		}
		return false, loadError(written, dynamic)
	}
	if err := env.checkTest(name, x, args); err != nil {
		return false, err
	}
	if err := checkSignature("test", name, 1+len(args), kwargs); err != nil {
		return false, err
	}
	return t(x, args, kwargs)
}

func typeTest(f func(x any) bool) testFunc {
	return func(x any, _ []any, _ map[string]any) (bool, error) { return f(x), nil }
}

// testTable is every test tender implements (a function, not a variable:
// the tests in tests_more.go reach the evaluator, which reaches this).
func testTable() map[string]testFunc {
	testsOnce.Do(func() { tests = makeTestTable() })
	return tests
}

var (
	testsOnce sync.Once
	tests     map[string]testFunc
)

func makeTestTable() map[string]testFunc {
	m := map[string]testFunc{
		"defined":   typeTest(func(x any) bool { _, u := x.(*undefined); return !u }),
		"undefined": typeTest(func(x any) bool { _, u := x.(*undefined); return u }),
		"none":      typeTest(func(x any) bool { return x == nil }),
		"true":      typeTest(func(x any) bool { b, ok := x.(bool); return ok && b }),
		"false":     typeTest(func(x any) bool { b, ok := x.(bool); return ok && !b }),
		"boolean":   typeTest(func(x any) bool { _, ok := x.(bool); return ok }),
		"integer":   typeTest(isInt),
		"float":     typeTest(func(x any) bool { _, ok := x.(float64); return ok }),
		"string":    typeTest(func(x any) bool { _, ok := text(x); return ok }),
		"number":    typeTest(isNumber),
		"mapping":   typeTest(isMapping),
		"iterable":  typeTest(isIterable),
		"sequence":  typeTest(isIterable),
		"callable":  typeTest(isCallable),
		"escaped":   typeTest(func(x any) bool { _, ok := x.(markup); return ok }),
		"lower":     typeTest(func(x any) bool { return casedAs(x, false) }),
		"upper":     typeTest(func(x any) bool { return casedAs(x, true) }),
		"odd":       modTest(2, 1),
		"even":      modTest(2, 0),
		"divisibleby": func(x any, args []any, kw map[string]any) (bool, error) {
			return modEquals(x, argOr(args, kw, 0, "num", nil), 0)
		},
		"in": func(x any, args []any, kw map[string]any) (bool, error) {
			seq, err := oneArg("in", args, kw, "seq")
			if err != nil {
				return false, err
			}
			return contain(seq, x)
		},
		"contains": func(x any, args []any, kw map[string]any) (bool, error) {
			v, err := oneArg("contains", args, kw, "value")
			if err != nil {
				return false, err
			}
			return contain(x, v)
		},
		"subset":          setTest("subset"),
		"issubset":        setTest("subset"),
		"superset":        setTest("superset"),
		"issuperset":      setTest("superset"),
		"match":           regexTest("match"),
		"search":          regexTest("search"),
		"regex":           regexTest("regex"),
		"version":         versionTestFunc,
		"version_compare": versionTestFunc,
	}
	for _, name := range []string{"eq", "equalto", "==", "ne", "!=", "lt", "lessthan", "<", "le", "<=", "gt", "greaterthan", ">", "ge", ">=", "sameas"} {
		m[name] = compareTest(name)
	}
	for _, name := range []string{"succeeded", "success", "successful", "failed", "failure", "changed", "change", "skipped", "skip",
		"finished", "started", "reachable", "unreachable"} {
		name := name
		m[name] = func(x any, _ []any, _ map[string]any) (bool, error) { return resultTest(name, x) }
	}
	for name, f := range valueTests {
		m[name] = f
	}
	for name, f := range pathTests {
		m[name] = f
	}
	m["same_file"] = sameFile
	for alias, name := range map[string]string{"is_dir": "directory", "is_file": "file", "is_link": "link", "is_abs": "abs",
		"is_same_file": "same_file", "is_mount": "mount", "isnan": "nan"} {
		m[alias] = m[name]
	}
	// Ansible's plugin loader fails on a name it cannot load, so these
	// tests are true or an error
	m["test"] = func(x any, _ []any, _ map[string]any) (bool, error) {
		s, _ := text(x)
		if _, found := m[pluginName(s)]; !found {
			return false, loadError(Str(x), false)
		}
		return true, nil
	}
	m["filter"] = func(x any, _ []any, _ map[string]any) (bool, error) {
		s, _ := text(x)
		if !isFilter(pluginName(s)) {
			return false, loadError(Str(x), false)
		}
		return true, nil
	}
	return m
}

// pluginName is a plugin's name without the ansible.builtin. or
// ansible.legacy. collection.
func pluginName(s string) string { return fqcn.Short(s) }

func isMapping(x any) bool {
	switch x.(type) {
	case map[string]any, Scope:
		return true
	}
	return false
}

func isIterable(x any) bool {
	switch x.(type) {
	case []any, map[string]any, Keyed:
		return true
	}
	_, ok := text(x)
	return ok
}

func isCallable(x any) bool {
	_, ok := x.(callable)
	return ok
}

// casedAs is Jinja's lower and upper tests: Python's str(x).islower()
// (isupper()): at least one cased character, none of the other case nor
// titlecase, with Unicode's Lowercase and Uppercase properties as Python
// reads them.
func casedAs(x any, upper bool) bool {
	s, ok := text(x)
	if !ok {
		// Jinja's tests read str(value)
		s = Str(x)
	}
	cased := false
	for _, r := range s {
		lower := unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r)
		up := unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r)
		switch {
		case unicode.IsTitle(r), upper && lower, !upper && up:
			return false
		case upper && up, !upper && lower:
			cased = true
		}
	}
	return cased
}

// modTest is Jinja's odd and even: value % n == want, with Python's %
// (a string formats: "%d" is even, "3" fails to format; 3.0 is odd).
func modTest(n, want int) testFunc {
	return func(x any, _ []any, _ map[string]any) (bool, error) {
		return modEquals(x, n, want)
	}
}

// modEquals is Python's x % n == want.
func modEquals(x, n any, want int) (bool, error) {
	m, err := binary("%", x, n)
	if err != nil {
		return false, err
	}
	return compareOp("==", m, want)
}

func compareTest(name string) testFunc {
	op := map[string]string{"eq": "==", "equalto": "==", "sameas": "==", "ne": "!=", "lt": "<", "lessthan": "<", "le": "<=",
		"gt": ">", "greaterthan": ">", "ge": ">="}[name]
	if op == "" {
		op = name
	}
	key := "" // Python's operator functions take no keywords
	if name == "sameas" {
		key = "other"
	}
	return func(x any, args []any, kw map[string]any) (bool, error) {
		b, err := oneArg(name, args, kw, key)
		if err != nil {
			return false, err
		}
		return compareOp(op, x, b)
	}
}

// setTest is subset and superset (issubset, issuperset): Python's
// set(a) <= set(b) (or >=), so a string is the set of its characters, a
// dict the set of its keys, and an item a set cannot hold (a list, a
// dict) fails as Python's "unhashable type".
func setTest(name string) testFunc {
	return func(x any, args []any, kw map[string]any) (bool, error) {
		other := argOr(args, kw, 0, "b", nil)
		if len(args) == 0 && kw["b"] == nil {
			return false, needArgs(name, args, 1)
		}
		a, b := x, other
		if name == "superset" {
			a, b = b, a
		}
		al, err := hashableItems(a)
		if err != nil {
			return false, err
		}
		bl, err := hashableItems(b)
		if err != nil {
			return false, err
		}
		for _, e := range al {
			found := false
			for _, f := range bl {
				if Equal(e, f) {
					found = true
					break
				}
			}
			if !found {
				return false, nil
			}
		}
		return true, nil
	}
}

// hashableItems are the items of v as Python's set(v) takes them, or
// the TypeError set() raises for an item it cannot hold.
func hashableItems(v any) ([]any, error) {
	items, err := iterate(v)
	if err != nil {
		return nil, err
	}
	for _, e := range items {
		switch e.(type) {
		case []any, map[string]any, Keyed:
			return nil, typeErrorf("unhashable type: '%s'", typeName(e))
		}
	}
	return items, nil
}

func regexTest(name string) testFunc {
	return func(x any, args []any, kwargs map[string]any) (bool, error) {
		s, ok := text(x)
		if !ok {
			s = Str(x)
		}
		// the pattern defaults to the empty one, as in Ansible
		pat := Str(argOr(args, kwargs, 0, "pattern", ""))
		ic := Truthy(argOr(args, kwargs, 1, "ignorecase", false))
		ml := Truthy(argOr(args, kwargs, 2, "multiline", false))
		mode := name
		if name == "regex" {
			mode = Str(argOr(args, kwargs, 3, "match_type", "search"))
			switch mode {
			case "match", "fullmatch", "search":
			default:
				// Ansible calls re's function of that name: tender has
				// these three; any other is refused, not searched.
				return false, errorf("the regex test's match_type is match, fullmatch or search in tender, not %s", Repr(mode))
			}
		}
		re, err := compileRegex(nil, pat, ic, ml)
		if err != nil {
			return false, err
		}
		m, err := search(nil, re, s, mode)
		return m != nil, err
	}
}

func versionTestFunc(x any, args []any, kwargs map[string]any) (bool, error) {
	return versionTest(x, args, kwargs)
}

// resultTest is one of Ansible's tests on a registered task result:
// succeeded (success, successful), failed (failure), changed (change),
// skipped (skip), finished, started, reachable and unreachable.
func resultTest(name string, x any) (bool, error) {
	m, ok := x.(map[string]any)
	if !ok {
		canonical := map[string]string{"success": "failed", "succeeded": "failed", "successful": "failed",
			"failure": "failed", "change": "changed", "skip": "skipped", "reachable": "unreachable"}[name]
		if canonical == "" {
			canonical = name
		}
		return false, errorf("The '%s' test expects a dictionary", canonical)
	}
	switch name {
	case "succeeded", "success", "successful":
		return !Truthy(m["failed"]), nil
	case "failed", "failure":
		return Truthy(m["failed"]), nil
	case "changed", "change":
		if v, ok := m["changed"]; ok {
			return Truthy(v), nil
		}
		rs, ok := m["results"].([]any)
		if !ok {
			return false, nil
		}
		if len(rs) == 0 {
			return false, errorf("list index out of range")
		}
		if _, ok := rs[0].(map[string]any); !ok {
			return false, nil
		}
		for _, r := range rs {
			if rm, ok := r.(map[string]any); ok && Truthy(rm["changed"]) {
				return true, nil
			}
		}
		return false, nil
	case "skipped", "skip":
		return Truthy(m["skipped"]), nil
	case "finished", "started":
		// an async status: 1 once it has started or finished; a result
		// without the key is not async, and counts as both
		v, ok := m[name]
		return !ok || Equal(v, 1), nil
	case "reachable":
		return !Truthy(m["unreachable"]), nil
	}
	return Truthy(m["unreachable"]), nil
}
