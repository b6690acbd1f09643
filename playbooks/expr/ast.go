package expr

// node is one node of a parsed expression; at is its byte offset in the
// source, used for error columns.
type node interface{ offset() int }

type base struct{ at int }

func (b base) offset() int { return b.at }

type (
	litNode struct {
		base
		v any
	}
	nameNode struct {
		base
		name string
	}
	listNode struct {
		base
		items []node
	}
	dictNode struct {
		base
		keys, vals []node
	}
	attrNode struct { // x.name
		base
		x    node
		name string
	}
	indexNode struct { // x[idx]
		base
		x, idx node
	}
	sliceNode struct { // x[lo:hi:step], any may be nil
		base
		x, lo, hi, step node
	}
	callNode struct { // fn(args) – a global function or x.method(args)
		base
		fn node
		callArgs
	}
	filterNode struct { // x | name(args)
		base
		x    node
		name string
		callArgs
	}
	testNode struct { // x is [not] name(args)
		base
		x    node
		name string
		callArgs
		negate bool
	}
	unaryNode struct { // -x, +x, not x
		base
		op string
		x  node
	}
	binNode struct { // arithmetic, ~, and, or
		base
		op   string
		l, r node
	}
	cmpNode struct { // a < b <= c, chained as Python does
		base
		first node
		ops   []string
		rest  []node
	}
	condNode struct { // a if c else b; b may be nil (undefined)
		base
		a, c, b node
	}
)

type kwarg struct {
	name string
	val  node
}

// callArgs are the arguments of a call, a filter or a test, as Jinja2
// takes them: positional, keyword, then at most one *iterable (its items
// become more positional arguments) and one **mapping (more keywords).
type callArgs struct {
	args   []node
	kwargs []kwarg
	star   node // *expr, or nil
	dstar  node // **expr, or nil
}

// subexprs are n's subexpressions in the order Jinja evaluates them (an
// if-expression's condition first); nil ones are left out.
func subexprs(n node) []node {
	var out []node
	add := func(ns ...node) {
		for _, x := range ns {
			if x != nil {
				out = append(out, x)
			}
		}
	}
	addArgs := func(a callArgs) {
		add(a.args...)
		for _, k := range a.kwargs {
			add(k.val)
		}
		add(a.star, a.dstar)
	}
	switch n := n.(type) {
	case *listNode:
		add(n.items...)
	case *dictNode:
		for i := range n.keys {
			add(n.keys[i], n.vals[i])
		}
	case *attrNode:
		add(n.x)
	case *indexNode:
		add(n.x, n.idx)
	case *sliceNode:
		add(n.x, n.lo, n.hi, n.step)
	case *callNode:
		add(n.fn)
		addArgs(n.callArgs)
	case *filterNode:
		add(n.x)
		addArgs(n.callArgs)
	case *testNode:
		add(n.x)
		addArgs(n.callArgs)
	case *unaryNode:
		add(n.x)
	case *binNode:
		add(n.l, n.r)
	case *cmpNode:
		add(n.first)
		add(n.rest...)
	case *condNode:
		add(n.c, n.a, n.b)
	}
	return out
}
