package expr

import (
	"errors"
	"strings"
)

// Jinja folds constant expressions when it compiles a template, and a
// few of its folds raise instead of giving up: joining (~) a constant
// operand that is undefined (`([] | first) ~ 'x'`, `{}.a ~ 'x'`),
// testing one for truth (`'a' if {}.a else 'b'`, `{}.a and 1`), or
// building a dict whose constant key is unhashable. The error escapes
// Jinja's compiler, and Ansible's templar then returns the template's
// text as it is, unrendered; a condition made of it is "unable to
// evaluate". A fold gives up (Jinja's Impossible) on anything that is not
// constant (a variable, a call, a filter that needs the context) or that
// fails otherwise, and the template then renders and fails at run time as
// usual.

// contextFilters are the filters Jinja will not fold: they take the
// template's context.
var contextFilters = map[string]bool{"map": true, "select": true, "reject": true, "selectattr": true, "rejectattr": true}

// foldRaises reports whether Jinja's folding raises somewhere in body
// (a dict's key only where the dict is folded as part of a larger
// expression: `{{ {[1]: 2} | length }}`, not `{{ {[1]: 2} }}`).
func foldRaises(env *Env, body []tnode) bool {
	f := &folder{env: env}
	f.stmts(body)
	return f.raised
}

// foldRaisesExpr is foldRaises for an expression.
func foldRaisesExpr(env *Env, n node) bool {
	f := &folder{env: env}
	f.expr(n)
	return f.raised
}

type folder struct {
	env    *Env
	raised bool
	// optimized: the node being visited lies beneath one Jinja's code
	// generator hands to its optimizer (an operator, a comparison, an
	// attribute or item, a filter, a test, an if-expression, a call),
	// which folds every node of its subtree; a list or a dict is not
	// handed on its own.
	optimized bool
}

func (f *folder) stmts(body []tnode) {
	for _, n := range body {
		if f.raised {
			return
		}
		switch n := n.(type) {
		case outNode:
			f.expr(n.n)
		case *ifNode:
			for i, c := range n.conds {
				f.expr(c)
				f.stmts(n.bodies[i])
			}
			f.stmts(n.els)
		case *forNode:
			f.expr(n.iter)
			f.expr(n.cond)
			f.stmts(n.body)
			f.stmts(n.els)
		case *setNode:
			f.expr(n.val)
		case *setBlockNode:
			f.expr(n.filter)
			f.stmts(n.body)
		case *filterBlockNode:
			f.expr(n.filter)
			f.stmts(n.body)
		case *withNode:
			for _, v := range n.vals {
				f.expr(v)
			}
			f.stmts(n.body)
		case *macroNode:
			f.exprs(n.sig.defaults)
			f.stmts(n.body)
		case *callBlockNode:
			f.exprs(n.sig.defaults)
			f.expr(n.call)
			f.stmts(n.body)
		case *importNode:
			f.expr(n.name)
		case *fromNode:
			f.expr(n.name)
		case *includeNode:
			f.expr(n.name)
		}
	}
}

func (f *folder) exprs(ns []node) {
	for _, n := range ns {
		f.expr(n)
	}
}

// expr visits n's subexpressions, then n itself, as Jinja's optimizer
// does, and notes a fold that raises.
func (f *folder) expr(n node) {
	if n == nil || f.raised {
		return
	}
	switch n.(type) {
	case *litNode, *nameNode, *listNode, *dictNode:
	default:
		if !f.optimized {
			f.optimized = true
			defer func() { f.optimized = false }()
		}
	}
	for _, x := range subexprs(n) {
		f.expr(x)
	}
	if f.raised {
		return
	}
	switch n := n.(type) {
	case *dictNode:
		f.raised = f.optimized && f.dictRaises(n)
	case *binNode:
		switch n.op {
		case "~":
			// str() of each operand in turn, up to one that is not
			// constant
			for _, x := range []node{n.l, n.r} {
				v, ok := f.constant(x)
				if !ok {
					break
				}
				if f.undefined(v) {
					f.raised = true
					return
				}
			}
		case "and", "or":
			if v, ok := f.constant(n.l); ok && f.undefined(v) {
				f.raised = true
			}
		}
	case *condNode:
		if v, ok := f.constant(n.c); ok && f.undefined(v) {
			f.raised = true
		}
	}
}

// dictRaises reports whether building a constant dict hits an unhashable
// key before a pair that is not constant.
func (f *folder) dictRaises(n *dictNode) bool {
	for i := range n.keys {
		k, ok := f.constant(n.keys[i])
		if !ok {
			return false
		}
		if _, ok := f.constant(n.vals[i]); !ok {
			return false
		}
		switch k.(type) {
		case []any, map[string]any:
			return true
		}
	}
	return false
}

// undefined reports whether v is an undefined value whose str() and
// bool() raise.
func (f *folder) undefined(v any) bool {
	u, ok := v.(*undefined)
	return ok && !u.lenient
}

// constant is n's value when Jinja folds it: n holds no variable, call
// or context filter, and evaluating it does not fail.
func (f *folder) constant(n node) (any, bool) {
	if !isConstant(n) {
		return nil, false
	}
	ev := newEvaluator(envScope{f.env}, "")
	v, err := ev.eval(n)
	if err != nil {
		switch n := n.(type) {
		case *indexNode, *sliceNode:
			// Jinja folds an item with its environment's getitem,
			// which gives an undefined value for an item it cannot
			// take (a slice of an int, a missing index) where the
			// template at run time fails.
			for _, x := range subexprs(n) {
				if _, ok := f.constant(x); !ok {
					return nil, false
				}
			}
			if IsTypeError(err) || isLookupError(err) {
				return &undefined{msg: "an item Jinja's folding could not take"}, true
			}
		}
		return nil, false
	}
	return v, true
}

// isConstant reports whether n is made of constants alone, as Jinja's
// as_const needs.
func isConstant(n node) bool {
	switch n := n.(type) {
	case nil:
		return true
	case *litNode:
		return true
	case *listNode:
		return allConstant(n.items...)
	case *dictNode:
		return allConstant(n.keys...) && allConstant(n.vals...)
	case *attrNode:
		return isConstant(n.x)
	case *indexNode:
		return allConstant(n.x, n.idx)
	case *sliceNode:
		return allConstant(n.x, n.lo, n.hi, n.step)
	case *filterNode:
		name := n.name[strings.LastIndexByte(n.name, '.')+1:]
		return !contextFilters[name] && isConstant(n.x) && constArgs(n.callArgs)
	case *testNode:
		return isConstant(n.x) && constArgs(n.callArgs)
	case *unaryNode:
		return isConstant(n.x)
	case *binNode:
		return allConstant(n.l, n.r)
	case *cmpNode:
		return isConstant(n.first) && allConstant(n.rest...)
	case *condNode:
		return allConstant(n.a, n.c, n.b) && n.b != nil
	}
	return false
}

func allConstant(ns ...node) bool {
	for _, n := range ns {
		if !isConstant(n) {
			return false
		}
	}
	return true
}

func constArgs(a callArgs) bool {
	if !allConstant(a.args...) || !allConstant(a.star, a.dstar) {
		return false
	}
	for _, k := range a.kwargs {
		if !isConstant(k.val) {
			return false
		}
	}
	return true
}

// isLookupError reports whether err is Python's IndexError or KeyError.
func isLookupError(err error) bool {
	var pe *pyError
	return errors.As(err, &pe) && (pe.exc == "IndexError" || pe.exc == "KeyError")
}
