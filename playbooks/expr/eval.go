package expr

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
)

// Eval evaluates the expression in scope. A name that is not defined is an
// error wrapping *UndefinedError, except where Ansible tolerates it (under
// `is defined`, `is undefined` and `default`).
func (e *Expr) Eval(scope Scope) (any, error) {
	if err := e.missing.check(scope, e.src); err != nil {
		return nil, err
	}
	ev := newEvaluator(scope, e.src)
	if len(e.names) > 0 {
		frame := &local{parent: scope}
		if err := ev.resolveFirst(frame, e.names); err != nil {
			return nil, err
		}
		ev.scope = frame
	}
	v, err := ev.value(e.root)
	return plain(v), err
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
	// convert selects the converting concat (Ansible's convert_data) for
	// template output, macro results and block sets.
	convert bool
	// native selects Ansible's native concat (jinja2_native, native.go)
	// over convert's.
	native bool
	// input is the value of blockInput while a filter block's filters run.
	input any
	// subdir is where first_found looks beside each search path when a
	// with_ loop runs it (RunLoopLookupIn); "" is "files".
	subdir string
}

// evalState is what the evaluators of one evaluation share, including
// those of the templates it includes and renders by lookup: the work done
// so far, how deeply templates are nested, and the included templates
// already parsed.
type evalState struct {
	steps    int
	nested   int
	included map[string]*Template
	done     <-chan struct{} // the Env's Done
	// unsafe: the evaluation read an unsafe value or ran a lookup, so a
	// template's result is unsafe (see unsafe.go).
	unsafe bool
	// b is the memory and time spent, shared with the evaluation that
	// started this one, if any (see Limits).
	b *budget
	// env is the Env its filters and lookups get: envFor's copy, carrying b.
	env, envFor *Env
}

// newEvaluator starts an evaluation in scope; one that reads a variable
// of an evaluation under way (a *resolving scope) shares its budget.
func newEvaluator(scope Scope, src string) *evaluator {
	st := &evalState{}
	env := envOf(scope)
	st.done = env.Done
	if st.b = scopeBudget(scope); st.b == nil {
		st.b = newBudget(env)
	}
	return &evaluator{scope: scope, src: src, st: st}
}

// env is the Env of the evaluator's scope, as its filters and lookups get
// it: a copy that carries the evaluation's budget, made once per Env.
func (ev *evaluator) env() *Env {
	env := envOf(ev.scope)
	if ev.st.envFor != env {
		c := *env
		c.budget = ev.st.b
		ev.st.env, ev.st.envFor = &c, env
	}
	return ev.st.env
}

// ErrInterrupted is the error of an evaluation stopped by its Env's Done.
var ErrInterrupted = errors.New("template evaluation interrupted")

// step counts one unit of work against maxSteps.
func (ev *evaluator) step(n int) error {
	ev.st.steps += n
	if ev.st.steps > maxSteps {
		return &Error{Src: ev.src, Col: 1, Msg: "template too expensive: more than 5000000 evaluation steps"}
	}
	if ev.st.done != nil {
		select {
		case <-ev.st.done:
			return ErrInterrupted
		default:
		}
	}
	if err := ev.st.b.tick(n * stepUnits); err != nil {
		return ev.limit(err)
	}
	return nil
}

// limit gives an error of the budget the template's source, unless it is
// an interruption (which names no template, as the step's own).
func (ev *evaluator) limit(err error) error {
	var le *limitError
	if errors.As(err, &le) {
		return &Error{Src: ev.src, Col: 1, Msg: le.msg, Err: le}
	}
	return err
}

// wrap attaches the column of n (the first, when n is nil) to an error
// that has none yet.
func (ev *evaluator) wrap(n node, err error) error {
	if err == nil {
		return nil
	}
	var pe *Error
	if errors.As(err, &pe) {
		return err
	}
	col := 1
	if n != nil {
		col = n.offset() + 1
	}
	e := &Error{Src: ev.src, Col: col, Msg: err.Error()}
	var pyErr *pyError
	if !errors.As(err, &pyErr) || pyErr.typ || pyErr.compile || pyErr.exc != "" {
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
		v, ok, err := lookupIn(ev.scope, n.name, ev.st.b)
		var ue *UndefinedError
		if errors.As(err, &ue) {
			// a variable whose value uses an undefined one is itself
			// undefined: `x is defined` is false, as in Ansible
			u := &undefined{name: ue.Name, msg: ue.Msg, key: n.name}
			if ue.hint != "" {
				u.hint = ue.hint
			}
			return u, nil
		}
		if err != nil {
			return nil, ev.wrap(n, err)
		}
		if !ok {
			if n.name == "omit" {
				return Omit, nil
			}
			if _, isGlobal := globalTable()[n.name]; isGlobal {
				return &globalRef{n.name}, nil
			}
			return &undefined{name: n.name, msg: fmt.Sprintf("'%s' is undefined", n.name), key: n.name}, nil
		}
		return ev.st.watch(v), nil
	case *listNode:
		out, err := ev.values(n.items)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = []any{}
		}
		return out, ev.built(n, out, false)
	case *dictNode:
		// As Python's dict display: every key and value is evaluated,
		// then the keys are hashed in order.
		keys := make([]any, len(n.keys))
		vals := make([]any, len(n.keys))
		for i := range n.keys {
			k, err := ev.value(n.keys[i])
			if err != nil {
				return nil, err
			}
			v, err := ev.value(n.vals[i])
			if err != nil {
				return nil, err
			}
			keys[i], vals[i] = k, v
		}
		out := pydict.NewBuilder(len(n.keys))
		for i, k := range keys {
			switch k.(type) {
			case []any, map[string]any, Keyed:
				return nil, ev.wrap(n.keys[i], typeErrorf("unhashable type: '%s'", typeName(k)))
			}
			out.Set(Str(k), vals[i])
		}
		m := out.Map()
		return m, ev.built(n, m, false)
	case *attrNode:
		x, err := ev.eval(n.x)
		if err != nil {
			return nil, err
		}
		if v, found, err := ev.scopeAttr(x, n.name); found || err != nil {
			return v, ev.wrap(n, err)
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
		if s, isText := text(k); isText {
			if v, found, err := ev.scopeAttr(x, s); found || err != nil {
				return v, ev.wrap(n, err)
			}
		}
		v, err := getItem(x, k, pathOf(n))
		return keepUnsafe(x, true, v), ev.wrap(n, err)
	case *sliceNode:
		return ev.evalSlice(n)
	case *callNode:
		return ev.evalCall(n)
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
	case *blockInput:
		return ev.input, nil
	case *condNode:
		c, err := ev.value(n.c)
		if err != nil {
			return nil, err
		}
		if Truthy(c) {
			return ev.eval(n.a)
		}
		if n.b == nil {
			line := 1 + strings.Count(ev.src[:min(max(n.offset(), 0), len(ev.src))], "\n")
			msg := fmt.Sprintf("the inline if-expression on line %d evaluated to false and no else section was defined.", line)
			return &undefined{name: "", msg: msg, hint: msg, lenient: true}, nil
		}
		return ev.eval(n.b)
	}
	return nil, ev.wrap(n, errorf("unknown node %T", n))
}

func (ev *evaluator) evalBin(n *binNode) (any, error) {
	switch n.op {
	case "and", "or":
		l, err := ev.value(n.l)
		if err != nil {
			return nil, err
		}
		if Truthy(l) == (n.op == "or") {
			return l, nil
		}
		return ev.value(n.r)
	}
	// As Python's: both operands are evaluated before the operation,
	// which an undefined one (the left first) then fails.
	var l, r any
	var err error
	if n.op == "~" {
		if l, err = ev.eval(n.l); err != nil {
			return nil, err
		}
		if r, err = ev.eval(n.r); err != nil {
			return nil, err
		}
		if l, err = ev.printedValue(n.l, l); err != nil {
			return nil, err
		}
		if r, err = ev.printedValue(n.r, r); err != nil {
			return nil, err
		}
	} else if l, r, err = ev.binOperands(n.l, n.r); err != nil {
		return nil, err
	}
	v, err := binary(n.op, l, r)
	if err != nil {
		return nil, ev.wrap(n, err)
	}
	return v, ev.built(n, v, false, l, r)
}

// binOperands evaluates a binary operation's operands, left then right,
// and only then refuses an undefined one, the left first.
func (ev *evaluator) binOperands(ln, rn node) (l, r any, err error) {
	if l, err = ev.eval(ln); err != nil {
		return nil, nil, err
	}
	if r, err = ev.eval(rn); err != nil {
		return nil, nil, err
	}
	if u, ok := l.(*undefined); ok {
		return nil, nil, ev.wrap(ln, u.err())
	}
	if u, ok := r.(*undefined); ok {
		return nil, nil, ev.wrap(rn, u.err())
	}
	return l, r, nil
}

func (ev *evaluator) evalCmp(n *cmpNode) (any, error) {
	if n.ops[0] == "in" || n.ops[0] == "not in" {
		return ev.evalIn(n)
	}
	// Python evaluates the first two operands before comparing them.
	l, r, err := ev.binOperands(n.first, n.rest[0])
	if err != nil {
		return nil, err
	}
	return ev.cmpFrom(n, l, r)
}

// cmpFrom applies a chain's first operator to l and r, then the rest.
func (ev *evaluator) cmpFrom(n *cmpNode, l, r any) (any, error) {
	ok, err := compareOp(n.ops[0], l, r)
	if err != nil {
		return nil, ev.wrap(n.rest[0], err)
	}
	if !ok {
		return false, nil
	}
	return ev.cmpChain(n, r, 1)
}

// evalIn evaluates a comparison chain whose first operator is in or not
// in, as Python runs `l in r`: r's __contains__ first, so an undefined
// r is the error even when l is undefined too; an undefined l fails only
// when it is used (compared with an item, hashed, or given to a string),
// so it is not in an empty list.
func (ev *evaluator) evalIn(n *cmpNode) (any, error) {
	l, err := ev.eval(n.first)
	if err != nil {
		return nil, err
	}
	r, err := ev.value(n.rest[0])
	if err != nil {
		return nil, err
	}
	if u, ok := l.(*undefined); ok {
		if _, isText := text(r); isText {
			return nil, ev.wrap(n.rest[0], typeErrorf("'in <string>' requires string as left operand, not AnsibleUndefined"))
		}
		switch h := r.(type) {
		case []any:
			if len(h) > 0 {
				return nil, ev.wrap(n.first, u.err())
			}
			if n.ops[0] == "in" {
				return false, nil
			}
			return ev.cmpChain(n, r, 1)
		case nil, bool, int, float64, *big.Int:
			// Python asks r for __contains__ before it touches l.
			return nil, ev.wrap(n.rest[0], typeErrorf("argument of type '%s' is not iterable", typeName(r)))
		default:
			return nil, ev.wrap(n.first, u.err())
		}
	}
	return ev.cmpFrom(n, l, r)
}

// cmpChain evaluates a comparison chain from its operator i on, l being
// the left operand of that operator.
func (ev *evaluator) cmpChain(n *cmpNode, l any, from int) (any, error) {
	for i := from; i < len(n.ops); i++ {
		op := n.ops[i]
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
	if err != nil || c == unordered {
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
			return false, typeErrorf("'in <string>' requires string as left operand, not %s", typeName(needle))
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
	return false, typeErrorf("argument of type '%s' is not iterable", typeName(haystack))
}
