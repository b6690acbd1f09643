package expr

import (
	"errors"
	"maps"
)

// Jinja resolves every name a template's top frame reads when the
// rendering starts, before it evaluates anything, and Ansible renders a
// variable's value as it is resolved. So a variable whose value fails
// (an error other than an undefined variable, which stays lazy) fails
// the template even where only a branch never taken names it, and before
// any error the expression itself would meet. An evaluation does the
// same: it resolves the names of its top frame up front, in Jinja's
// order, and keeps what it resolved for the rest of the evaluation, so
// no value is rendered twice.

// resolved is one name's lookup, kept for the evaluation.
type resolved struct {
	v   any
	ok  bool
	err error
}

// resolveFirst looks up names (the first node of each, in Jinja's order)
// below frame and keeps the results in it. It returns the first error
// that is not an undefined variable's, as the name's node raises it.
func (ev *evaluator) resolveFirst(frame *local, names []*nameNode) error {
	if len(names) == 0 {
		return nil
	}
	frame.resolved = make(map[string]resolved, len(names))
	for _, n := range names {
		v, ok, err := lookupIn(frame.parent, n.name, ev.st.b)
		var ue *UndefinedError
		if err != nil && !errors.As(err, &ue) {
			return ev.wrap(n, err)
		}
		if ok && err == nil {
			// As Ansible's context, a value read this way makes the
			// result unsafe even if the evaluation never uses it.
			v = ev.st.watch(v)
		}
		frame.resolved[n.name] = resolved{v, ok, err}
	}
	return nil
}

// nameOrder collects the names an expression reads, each once, in the
// order Jinja's compiler visits them (its nodes' fields in order: a
// conditional expression's test before its branches, a filter's input
// before its arguments).
type nameOrder struct {
	seen   map[string]bool
	stored map[string]bool // names the frame assigns (set, macro, import)
	order  []string        // the names assigned, in order
	names  []*nameNode
}

func (o *nameOrder) add(n *nameNode) {
	if o.seen[n.name] || o.stored[n.name] {
		return
	}
	if o.seen == nil {
		o.seen = map[string]bool{}
	}
	o.seen[n.name] = true
	o.names = append(o.names, n)
}

func (o *nameOrder) expr(n node) {
	if nn, ok := n.(*nameNode); ok {
		o.add(nn)
		return
	}
	o.exprs(subexprs(n))
}

func (o *nameOrder) exprs(ns []node) {
	for _, n := range ns {
		o.expr(n)
	}
}

// exprNames are the names an expression reads, in Jinja's order.
func exprNames(n node) []*nameNode {
	var o nameOrder
	o.expr(n)
	return o.names
}

// templateNames are the names a template's top frame reads, in Jinja's
// order: what its output, conditions, loop sources, set values, with
// values, filter blocks, calls, imports and includes name, not what loop
// bodies, macros and block sets name (their own frames resolve those
// when they run). A name the frame assigns before it reads it is its
// own, unless only some branches of an if assign it: then the frame
// resolves it too, for the branches that do not.
func templateNames(body []tnode) []*nameNode {
	o := nameOrder{stored: map[string]bool{}}
	o.stmts(body)
	return o.names
}

// mark makes name the frame's own.
func (o *nameOrder) mark(name string) {
	if !o.stored[name] {
		o.stored[name] = true
		o.order = append(o.order, name)
	}
}

func (o *nameOrder) store(t *target) {
	if t.ns != "" {
		return // set ns.attr reads ns
	}
	if t.name != "" {
		o.mark(t.name)
	}
	for _, it := range t.items {
		o.store(it)
	}
}

func (o *nameOrder) stmts(body []tnode) {
	for _, n := range body {
		switch n := n.(type) {
		case outNode:
			o.expr(n.n)
		case *setNode:
			o.expr(n.val)
			if n.tgt.ns != "" {
				o.add(&nameNode{base: base{n.val.offset()}, name: n.tgt.ns})
			}
			o.store(n.tgt)
		case *setBlockNode:
			o.store(n.tgt)
		case *filterBlockNode:
			o.expr(n.filter)
		case *withNode:
			o.exprs(n.vals)
		case *callBlockNode:
			o.expr(n.call)
		case *macroNode:
			o.mark(n.name)
		case *importNode:
			o.expr(n.name)
			o.mark(n.as)
		case *fromNode:
			o.expr(n.name)
			for _, a := range n.aliases {
				o.mark(a)
			}
		case *includeNode:
			o.expr(n.name)
		case *ifNode:
			o.ifStmt(n)
		case *forNode:
			o.expr(n.iter)
		}
	}
}

// ifStmt reads an if's conditions and branches. A name a branch
// assigns is read too (Jinja resolves it even when every branch assigns
// it), in the order the branches assign them, and is the frame's after
// the if.
func (o *nameOrder) ifStmt(n *ifNode) {
	before, mark := o.stored, len(o.order)
	branch := func(body []tnode) {
		o.stored = maps.Clone(before)
		o.stmts(body)
	}
	for i, c := range n.conds {
		o.stored = before
		o.expr(c)
		branch(n.bodies[i])
	}
	branch(n.els)
	o.stored = before
	assigned := o.order[mark:]
	o.order = o.order[:mark]
	for _, name := range assigned {
		if !o.stored[name] {
			o.add(&nameNode{base: base{n.conds[0].offset()}, name: name})
			o.mark(name)
		}
	}
}
