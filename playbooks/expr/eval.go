package expr

import (
	"errors"
	"fmt"
	"strings"
)

// Eval evaluates the expression in scope. A name that is not defined is an
// error wrapping *UndefinedError, except where Ansible tolerates it (under
// `is defined`, `is undefined` and `default`).
func (e *Expr) Eval(scope Scope) (any, error) {
	return newEvaluator(scope, e.src).value(e.root)
}

// maxDepth bounds evaluation nesting (lazily rendered variables, deeply
// nested input) so that hostile input errors instead of exhausting the stack.
const maxDepth = 2000

// maxSteps bounds the work of one evaluation (nodes evaluated plus loop
// iterations), so that nested loops over large ranges fail instead of
// running for hours. Real templates stay far below it.
const maxSteps = 5_000_000

type evaluator struct {
	scope Scope
	src   string
	depth int
	st    *evalState
	// dirs is where {% include %} looks for templates; nil means the
	// default for top and the scope's Env (see includeDirs).
	dirs []string
	top  *Template // the template being rendered, if any
	// delims are the markers of the template files it loads (includes);
	// nil is Jinja's.
	delims *delims
}

// evalState is what the evaluators of one evaluation share, including
// those of the templates it includes and renders by lookup: the work done
// so far, how deeply templates are nested, and the included templates
// already parsed.
type evalState struct {
	steps    int
	nested   int
	included map[string]*Template
}

func newEvaluator(scope Scope, src string) *evaluator {
	return &evaluator{scope: scope, src: src, st: &evalState{}}
}

// step counts one unit of work against maxSteps.
func (ev *evaluator) step(n int) error {
	ev.st.steps += n
	if ev.st.steps > maxSteps {
		return &Error{Src: ev.src, Col: 1, Msg: "template too expensive: more than 5000000 evaluation steps"}
	}
	return nil
}

// wrap attaches the column of n to an error that has none yet.
func (ev *evaluator) wrap(n node, err error) error {
	if err == nil {
		return nil
	}
	var pe *Error
	if errors.As(err, &pe) {
		return err
	}
	e := &Error{Src: ev.src, Col: n.offset() + 1, Msg: err.Error()}
	var pyErr *pyError
	if !errors.As(err, &pyErr) {
		e.Err = err
	}
	return e
}

// value evaluates n and refuses an undefined result.
func (ev *evaluator) value(n node) (any, error) {
	v, err := ev.eval(n)
	if err != nil {
		return nil, err
	}
	if u, ok := v.(*undefined); ok {
		return nil, ev.wrap(n, u.err())
	}
	return v, nil
}

func (ev *evaluator) values(ns []node) ([]any, error) {
	out := make([]any, len(ns))
	for i, n := range ns {
		v, err := ev.value(n)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// eval evaluates n; the result may be *undefined.
func (ev *evaluator) eval(n node) (any, error) {
	ev.depth++
	defer func() { ev.depth-- }()
	if ev.depth > maxDepth {
		return nil, ev.wrap(n, errorf("expression nested too deeply"))
	}
	if err := ev.step(1); err != nil {
		return nil, err
	}
	switch n := n.(type) {
	case *litNode:
		return n.v, nil
	case *nameNode:
		v, ok, err := ev.scope.Lookup(n.name)
		var ue *UndefinedError
		if errors.As(err, &ue) {
			// a variable whose value uses an undefined one is itself
			// undefined: `x is defined` is false, as in Ansible
			return &undefined{name: ue.Name, msg: ue.Msg}, nil
		}
		if err != nil {
			return nil, ev.wrap(n, err)
		}
		if !ok {
			if n.name == "omit" {
				return Omit, nil
			}
			return &undefined{name: n.name, msg: fmt.Sprintf("'%s' is undefined", n.name)}, nil
		}
		return v, nil
	case *listNode:
		out, err := ev.values(n.items)
		if out == nil && err == nil {
			out = []any{}
		}
		return out, err
	case *dictNode:
		out := make(map[string]any, len(n.keys))
		for i := range n.keys {
			k, err := ev.value(n.keys[i])
			if err != nil {
				return nil, err
			}
			v, err := ev.value(n.vals[i])
			if err != nil {
				return nil, err
			}
			out[Str(k)] = v
		}
		return out, nil
	case *attrNode:
		x, err := ev.eval(n.x)
		if err != nil {
			return nil, err
		}
		v, err := getAttr(x, n.name, pathOf(n))
		return v, ev.wrap(n, err)
	case *indexNode:
		x, err := ev.eval(n.x)
		if err != nil {
			return nil, err
		}
		k, err := ev.value(n.idx)
		if err != nil {
			return nil, err
		}
		v, err := getItem(x, k, pathOf(n))
		return v, ev.wrap(n, err)
	case *sliceNode:
		return ev.evalSlice(n)
	case *callNode:
		v, err := ev.evalCall(n)
		if l, ok := v.([]any); ok && err == nil {
			err = ev.step(len(l))
		}
		return v, err
	case *filterNode:
		v, err := ev.evalFilter(n)
		return v, ev.wrap(n, err)
	case *testNode:
		v, err := ev.evalTest(n)
		return v, ev.wrap(n, err)
	case *unaryNode:
		x, err := ev.value(n.x)
		if err != nil {
			return nil, err
		}
		if n.op == "not" {
			return !Truthy(x), nil
		}
		v, err := unary(n.op, x)
		return v, ev.wrap(n, err)
	case *binNode:
		return ev.evalBin(n)
	case *cmpNode:
		return ev.evalCmp(n)
	case *condNode:
		c, err := ev.value(n.c)
		if err != nil {
			return nil, err
		}
		if Truthy(c) {
			return ev.eval(n.a)
		}
		if n.b == nil {
			return &undefined{name: "", msg: "the inline if-expression evaluated to false and no else section was defined"}, nil
		}
		return ev.eval(n.b)
	}
	return nil, ev.wrap(n, errorf("unknown node %T", n))
}

func (ev *evaluator) evalBin(n *binNode) (any, error) {
	l, err := ev.value(n.l)
	if err != nil {
		return nil, err
	}
	switch n.op {
	case "and":
		if !Truthy(l) {
			return l, nil
		}
		return ev.value(n.r)
	case "or":
		if Truthy(l) {
			return l, nil
		}
		return ev.value(n.r)
	}
	r, err := ev.value(n.r)
	if err != nil {
		return nil, err
	}
	v, err := binary(n.op, l, r)
	return v, ev.wrap(n, err)
}

func (ev *evaluator) evalCmp(n *cmpNode) (any, error) {
	l, err := ev.value(n.first)
	if err != nil {
		return nil, err
	}
	for i, op := range n.ops {
		r, err := ev.value(n.rest[i])
		if err != nil {
			return nil, err
		}
		ok, err := compareOp(op, l, r)
		if err != nil {
			return nil, ev.wrap(n.rest[i], err)
		}
		if !ok {
			return false, nil
		}
		l = r
	}
	return true, nil
}

func compareOp(op string, l, r any) (bool, error) {
	switch op {
	case "==":
		return Equal(l, r), nil
	case "!=":
		return !Equal(l, r), nil
	case "in":
		return contain(r, l)
	case "not in":
		ok, err := contain(r, l)
		return !ok, err
	}
	c, err := compare(op, l, r)
	if err != nil {
		return false, err
	}
	switch op {
	case "<":
		return c < 0, nil
	case "<=":
		return c <= 0, nil
	case ">":
		return c > 0, nil
	}
	return c >= 0, nil
}

// contain is Python's `needle in haystack`.
func contain(haystack, needle any) (bool, error) {
	if s, ok := text(haystack); ok {
		n, ok := text(needle)
		if !ok {
			return false, errorf("'in <string>' requires string as left operand, not %s", typeName(needle))
		}
		return strings.Contains(s, n), nil
	}
	switch h := haystack.(type) {
	case []any:
		for _, e := range h {
			if Equal(e, needle) {
				return true, nil
			}
		}
		return false, nil
	case map[string]any:
		k, ok := text(needle)
		if !ok {
			return false, nil
		}
		_, ok = h[k]
		return ok, nil
	case Scope:
		k, ok := text(needle)
		if !ok {
			return false, nil
		}
		_, ok, err := h.Lookup(k)
		return ok, err
	}
	return false, errorf("argument of type '%s' is not iterable", typeName(haystack))
}

// pathOf renders the source path of an attribute/index chain for messages.
func pathOf(n node) string {
	switch n := n.(type) {
	case *nameNode:
		return n.name
	case *attrNode:
		return pathOf(n.x) + "." + n.name
	case *indexNode:
		if l, ok := n.idx.(*litNode); ok {
			return pathOf(n.x) + "[" + Repr(l.v) + "]"
		}
		return pathOf(n.x) + "[...]"
	}
	return "(expression)"
}

// getAttr is Jinja's x.name: a dict key, else undefined.
func getAttr(x any, name, path string) (any, error) {
	switch t := x.(type) {
	case *undefined:
		return t, nil
	case map[string]any:
		if v, ok := t[name]; ok {
			return v, nil
		}
	case *loopInfo:
		if v, ok := t.attr(name); ok {
			return v, nil
		}
	case Scope:
		v, ok, err := t.Lookup(name)
		if err != nil || ok {
			return v, err
		}
	}
	return &undefined{name: path, msg: fmt.Sprintf("'%s' has no attribute '%s'", objName(x), name)}, nil
}

// getItem is Jinja's x[k]: a dict key, a list or string index, else undefined.
func getItem(x, k any, path string) (any, error) {
	switch t := x.(type) {
	case *undefined:
		return t, nil
	case *loopInfo, map[string]any, Scope:
		if s, ok := text(k); ok {
			return getAttr(x, s, path)
		}
	case []any:
		if i, ok := integer(k); ok {
			if i < 0 {
				i += len(t)
			}
			if i >= 0 && i < len(t) {
				return t[i], nil
			}
		}
	default:
		if s, ok := text(x); ok {
			if i, ok := integer(k); ok {
				r := []rune(s)
				if i < 0 {
					i += len(r)
				}
				if i >= 0 && i < len(r) {
					return string(r[i]), nil
				}
			}
		}
	}
	return &undefined{name: path, msg: fmt.Sprintf("'%s' has no attribute %s", objName(x), Repr(k))}, nil
}

func (ev *evaluator) evalSlice(n *sliceNode) (any, error) {
	x, err := ev.value(n.x)
	if err != nil {
		return nil, err
	}
	var idx [3]*int
	for i, p := range []node{n.lo, n.hi, n.step} {
		if p == nil {
			continue
		}
		v, err := ev.value(p)
		if err != nil {
			return nil, err
		}
		if v == nil {
			continue
		}
		iv, ok := integer(v)
		if !ok {
			return nil, ev.wrap(p, errorf("slice indices must be integers or None"))
		}
		idx[i] = &iv
	}
	v, err := sliceValue(x, idx[0], idx[1], idx[2])
	return v, ev.wrap(n, err)
}

// sliceValue is Python's x[lo:hi:step] on lists and strings.
func sliceValue(x any, lo, hi, step *int) (any, error) {
	st := 1
	if step != nil {
		st = *step
	}
	if st == 0 {
		return nil, errorf("slice step cannot be zero")
	}
	var n int
	s, isStr := text(x)
	var runes []rune
	list, isList := x.([]any)
	switch {
	case isStr:
		runes = []rune(s)
		n = len(runes)
	case isList:
		n = len(list)
	default:
		return nil, errorf("'%s' object is not subscriptable", typeName(x))
	}
	norm := func(p *int, def int) int {
		if p == nil {
			return def
		}
		i := *p
		if i < 0 {
			i += n
			if i < 0 {
				if st < 0 {
					return -1
				}
				return 0
			}
		}
		if i >= n {
			if st < 0 {
				return n - 1
			}
			return n
		}
		return i
	}
	var a, b int
	if st > 0 {
		a, b = norm(lo, 0), norm(hi, n)
	} else {
		a, b = norm(lo, n-1), norm(hi, -1)
	}
	var picked []int
	for i := a; (st > 0 && i < b) || (st < 0 && i > b); i += st {
		picked = append(picked, i)
	}
	if isStr {
		var sb strings.Builder
		for _, i := range picked {
			sb.WriteRune(runes[i])
		}
		return sb.String(), nil
	}
	out := make([]any, 0, len(picked))
	for _, i := range picked {
		out = append(out, list[i])
	}
	return out, nil
}
