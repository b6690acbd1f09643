package expr

import (
	"strings"
)

// evalTest evaluates `x is [not] name(args)`.
func (ev *evaluator) evalTest(n *testNode) (any, error) {
	name := strings.TrimPrefix(strings.TrimPrefix(n.name, "ansible.builtin."), "ansible.legacy.")
	var x any
	var err error
	if name == "defined" || name == "undefined" {
		x, err = ev.eval(n.x)
	} else {
		x, err = ev.value(n.x)
	}
	if err != nil {
		return nil, err
	}
	args, kwargs, err := ev.arguments(&n.callArgs)
	if err != nil {
		return nil, err
	}
	ok, err := runTest(name, x, args, kwargs)
	if err != nil {
		return nil, err
	}
	return ok != n.negate, nil
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

func needArgs(name string, args []any, n int) error {
	if len(args) < n {
		return errorf("test '%s' requires %d argument(s)", name, n)
	}
	return nil
}

func runTest(name string, x any, args []any, kwargs map[string]any) (bool, error) {
	switch name {
	case "defined":
		_, u := x.(*undefined)
		return !u, nil
	case "undefined":
		_, u := x.(*undefined)
		return u, nil
	case "none":
		return x == nil, nil
	case "true":
		b, ok := x.(bool)
		return ok && b, nil
	case "false":
		b, ok := x.(bool)
		return ok && !b, nil
	case "boolean":
		_, ok := x.(bool)
		return ok, nil
	case "integer":
		_, ok := x.(int)
		return ok, nil
	case "float":
		_, ok := x.(float64)
		return ok, nil
	case "string":
		_, ok := text(x)
		return ok, nil
	case "number":
		_, ok := number(x)
		return ok, nil
	case "mapping":
		_, ok := x.(map[string]any)
		return ok, nil
	case "iterable", "sequence":
		switch x.(type) {
		case []any, map[string]any:
			return true, nil
		}
		_, ok := text(x)
		return ok, nil
	case "callable":
		return false, nil
	case "lower", "upper":
		s, ok := text(x)
		if !ok {
			return false, nil
		}
		cased := strings.ToLower(s) != strings.ToUpper(s)
		if name == "lower" {
			return cased && s == strings.ToLower(s), nil
		}
		return cased && s == strings.ToUpper(s), nil
	case "odd", "even", "divisibleby":
		n, ok := integer(x)
		if !ok {
			return false, errorf("test '%s' needs an integer, got %s", name, typeName(x))
		}
		switch name {
		case "odd":
			return n%2 != 0, nil
		case "even":
			return n%2 == 0, nil
		}
		if err := needArgs(name, args, 1); err != nil {
			return false, err
		}
		d, ok := integer(args[0])
		if !ok || d == 0 {
			return false, errorf("divisibleby needs a non-zero integer")
		}
		return n%d == 0, nil
	case "eq", "equalto", "==", "ne", "!=", "lt", "<", "le", "<=", "gt", ">", "ge", ">=", "sameas":
		if err := needArgs(name, args, 1); err != nil {
			return false, err
		}
		op := map[string]string{"eq": "==", "equalto": "==", "sameas": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}[name]
		if op == "" {
			op = name
		}
		return compareOp(op, x, args[0])
	case "in":
		if err := needArgs(name, args, 1); err != nil {
			return false, err
		}
		return contain(args[0], x)
	case "contains":
		if err := needArgs(name, args, 1); err != nil {
			return false, err
		}
		return contain(x, args[0])
	case "subset", "superset":
		if err := needArgs(name, args, 1); err != nil {
			return false, err
		}
		a, b := x, args[0]
		if name == "superset" {
			a, b = b, a
		}
		al, err := iterate(a)
		if err != nil {
			return false, err
		}
		for _, e := range al {
			if ok, err := contain(b, e); err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	case "succeeded", "success", "successful", "failed", "failure", "changed", "change", "skipped", "skip",
		"finished", "started", "reachable", "unreachable":
		return resultTest(name, x)
	case "match", "search", "regex":
		if err := needArgs(name, args, 1); err != nil {
			return false, err
		}
		s, ok := text(x)
		if !ok {
			s = Str(x)
		}
		pat := Str(args[0])
		ic := Truthy(argOr(args, kwargs, 1, "ignorecase", false))
		ml := Truthy(argOr(args, kwargs, 2, "multiline", false))
		mode := name
		if name == "regex" {
			mode = Str(argOr(args, kwargs, 3, "match_type", "search"))
		}
		re, err := compileRegex(pat, ic, ml, false)
		if err != nil {
			return false, err
		}
		switch mode {
		case "match":
			loc := re.FindStringIndex(s)
			return loc != nil && loc[0] == 0, nil
		case "fullmatch":
			return matchFull(pat, s, ic, ml)
		}
		return re.MatchString(s), nil
	case "version", "version_compare":
		if err := needArgs(name, args, 1); err != nil {
			return false, err
		}
		strict := Truthy(argOr(args, kwargs, 2, "strict", false))
		if vt, ok := kwargs["version_type"]; ok && Str(vt) == "strict" {
			strict = true
		}
		return versionTest(x, args[0], argOr(args, kwargs, 1, "operator", nil), strict)
	}
	return false, errorf("no test named '%s'", name)
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
