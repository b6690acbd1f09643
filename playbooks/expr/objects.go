package expr

import (
	"fmt"

	"github.com/tender-sh/tender/internal/pydict"
)

// Objects that templates make and use: macros, namespaces, cyclers,
// joiners and imported template modules.

// strer is an internal value with Python's str(), repr() and type name.
type strer interface {
	str() string
	repr() string
	typeName() string
}

// callable is an internal value that can be called: a macro, a joiner,
// the loop of a recursive {% for %}.
type callable interface {
	call(ev *evaluator, args []any, kw map[string]any) (any, error)
}

// methodHolder is an internal value with methods; ok is false for a name
// it does not have.
type methodHolder interface {
	method(ev *evaluator, name string, args []any, kw map[string]any) (v any, ok bool, err error)
}

// attrHolder is an internal value with attributes.
type attrHolder interface {
	attr(name string) (any, bool)
}

// signature is a macro's (or a call block's) parameters, and whether its
// body uses caller, varargs and kwargs (which decide the arguments it
// takes, as in Jinja).
type signature struct {
	params                   []string
	defaults                 []node
	caller, varargs, kwargsU bool
}

func newSignature(it *item, body []tnode) *signature {
	s := &signature{params: it.params, defaults: it.defaults}
	if len(s.defaults) < len(s.params) {
		s.defaults = append(s.defaults, make([]node, len(s.params)-len(s.defaults))...)
	}
	walkBody(body, func(n node) {
		if nm, ok := n.(*nameNode); ok {
			switch nm.name {
			case "caller":
				s.caller = true
			case "varargs":
				s.varargs = true
			case "kwargs":
				s.kwargsU = true
			}
		}
	})
	return s
}

// macro is a {% macro %} (or the caller of a {% call %} block): called, it
// renders its body in a frame over the one it was defined in and returns
// the output joined by the environment's concat.
type macro struct {
	name    string
	sig     *signature
	body    []tnode
	closure *local
	src     string
	top     *Template
	dirs    []string
	delims  *delims
	convert bool
	native  bool
}

func (ev *evaluator) newMacro(name string, sig *signature, body []tnode, closure *local) *macro {
	return &macro{name: name, sig: sig, body: body, closure: closure, src: ev.src, top: ev.top, dirs: ev.dirs, delims: ev.delims, convert: ev.convert, native: ev.native}
}

func (m *macro) call(ev *evaluator, args []any, kw map[string]any) (any, error) {
	f := &local{parent: m.closure, vars: map[string]any{}}
	child := &evaluator{scope: f, src: m.src, depth: ev.depth, st: ev.st, dirs: m.dirs, top: m.top, delims: m.delims, convert: m.convert, native: m.native}
	np := len(m.sig.params)
	if len(args) > np && !m.sig.varargs {
		return nil, errorf("macro '%s' takes not more than %d argument(s)", m.name, np)
	}
	rest := map[string]any{}
	for k, v := range kw {
		rest[k] = v
	}
	for i, p := range m.sig.params {
		v, given := rest[p]
		delete(rest, p)
		switch {
		case i < len(args):
			if given {
				return nil, typeErrorf("macro '%s' got multiple values for argument '%s'", m.name, p)
			}
			f.vars[p] = args[i]
		case given:
			f.vars[p] = v
		case m.sig.defaults[i] != nil:
			child.scope = f
			d, err := child.eval(m.sig.defaults[i])
			if err != nil {
				return nil, err
			}
			f.vars[p] = d
		default:
			msg := fmt.Sprintf("parameter '%s' was not provided", p)
			f.vars[p] = &undefined{name: p, msg: msg, hint: msg, key: p}
		}
	}
	if m.sig.caller {
		if c, ok := rest["caller"]; ok {
			f.vars["caller"] = c
		} else {
			f.vars["caller"] = &undefined{name: "caller", msg: "No caller defined", hint: "No caller defined", key: "caller"}
		}
		delete(rest, "caller")
	}
	if m.sig.kwargsU {
		f.vars["kwargs"] = rest
	} else {
		for _, k := range pydict.Keys(rest) {
			return nil, errorf("macro '%s' takes no keyword argument '%s'", m.name, k)
		}
	}
	if m.sig.varargs {
		extra := []any{}
		if len(args) > np {
			extra = append(extra, args[np:]...)
		}
		f.vars["varargs"] = extra
	}
	o := child.newOutput()
	if err := child.renderBody(o, m.body, f); err != nil {
		return nil, err
	}
	return child.concat(o)
}

func (m *macro) attr(name string) (any, bool) {
	switch name {
	case "name":
		return m.name, true
	case "arguments":
		return toList(m.sig.params), true
	case "catch_kwargs":
		return m.sig.kwargsU, true
	case "catch_varargs":
		return m.sig.varargs, true
	case "caller":
		return m.sig.caller, true
	}
	return nil, false
}

func (m *macro) str() string      { return "<Macro '" + m.name + "'>" }
func (m *macro) repr() string     { return m.str() }
func (m *macro) typeName() string { return "Macro" }

// namespace is Jinja's namespace(): attributes that {% set ns.attr = %}
// can change from inside loops.
type namespace struct{ vals map[string]any }

func (n *namespace) attr(name string) (any, bool) { v, ok := n.vals[name]; return v, ok }
func (n *namespace) set(name string, v any)       { n.vals[name] = v }
func (n *namespace) str() string                  { return "<Namespace " + Repr(n.vals) + ">" }
func (n *namespace) repr() string                 { return n.str() }
func (n *namespace) typeName() string             { return "Namespace" }

// cycler is Jinja's cycler(*items): next(), current, reset().
type cycler struct {
	items []any
	pos   int
}

func (c *cycler) attr(name string) (any, bool) {
	if name == "current" {
		return c.items[c.pos], true
	}
	return nil, false
}

func (c *cycler) method(_ *evaluator, name string, _ []any, _ map[string]any) (any, bool, error) {
	switch name {
	case "next":
		v := c.items[c.pos]
		c.pos = (c.pos + 1) % len(c.items)
		return v, true, nil
	case "reset":
		c.pos = 0
		return nil, true, nil
	}
	return nil, false, nil
}

func (c *cycler) str() string      { return "<jinja2.utils.Cycler object>" }
func (c *cycler) repr() string     { return c.str() }
func (c *cycler) typeName() string { return "Cycler" }

// joiner is Jinja's joiner(sep): "" when first called, sep afterwards.
type joiner struct {
	sep  string
	used bool
}

func (j *joiner) call(_ *evaluator, _ []any, _ map[string]any) (any, error) {
	if !j.used {
		j.used = true
		return "", nil
	}
	return j.sep, nil
}

func (j *joiner) str() string      { return "<jinja2.utils.Joiner object>" }
func (j *joiner) repr() string     { return j.str() }
func (j *joiner) typeName() string { return "Joiner" }

// tmplModule is an imported template: its exported macros and variables.
type tmplModule struct {
	name    string
	exports map[string]any
}

func (t *tmplModule) attr(name string) (any, bool) { v, ok := t.exports[name]; return v, ok }
func (t *tmplModule) str() string                  { return "<Template module '" + t.name + "'>" }
func (t *tmplModule) repr() string                 { return t.str() }
func (t *tmplModule) typeName() string             { return "TemplateModule" }

// globalRef is a global function used as a value ({{ range is callable }}).
type globalRef struct{ name string }

func (g *globalRef) call(ev *evaluator, args []any, kw map[string]any) (any, error) {
	return ev.global(g.name, args, kw)
}
func (g *globalRef) str() string      { return "<built-in function " + g.name + ">" }
func (g *globalRef) repr() string     { return g.str() }
func (g *globalRef) typeName() string { return "builtin_function_or_method" }

// walkBody calls f on every expression node in body, statements included.
func walkBody(body []tnode, f func(node)) {
	for _, n := range body {
		switch n := n.(type) {
		case outNode:
			walkNode(n.n, f)
		case *ifNode:
			for _, c := range n.conds {
				walkNode(c, f)
			}
			for _, b := range n.bodies {
				walkBody(b, f)
			}
			walkBody(n.els, f)
		case *forNode:
			walkNode(n.iter, f)
			walkNode(n.cond, f)
			walkBody(n.body, f)
			walkBody(n.els, f)
		case *setNode:
			walkNode(n.val, f)
		case *setBlockNode:
			walkNode(n.filter, f)
			walkBody(n.body, f)
		case *filterBlockNode:
			walkNode(n.filter, f)
			walkBody(n.body, f)
		case *withNode:
			for _, v := range n.vals {
				walkNode(v, f)
			}
			walkBody(n.body, f)
		case *macroNode:
			walkBody(n.body, f)
		case *callBlockNode:
			walkNode(n.call, f)
			walkBody(n.body, f)
		case *includeNode:
			walkNode(n.name, f)
		}
	}
}

// walkNode calls f on n and every node below it.
func walkNode(n node, f func(node)) {
	if n == nil {
		return
	}
	f(n)
	args := func(c *callArgs) {
		for _, a := range c.args {
			walkNode(a, f)
		}
		for _, k := range c.kwargs {
			walkNode(k.val, f)
		}
		walkNode(c.star, f)
		walkNode(c.dstar, f)
	}
	switch n := n.(type) {
	case *listNode:
		for _, x := range n.items {
			walkNode(x, f)
		}
	case *dictNode:
		for i := range n.keys {
			walkNode(n.keys[i], f)
			walkNode(n.vals[i], f)
		}
	case *attrNode:
		walkNode(n.x, f)
	case *indexNode:
		walkNode(n.x, f)
		walkNode(n.idx, f)
	case *sliceNode:
		walkNode(n.x, f)
		walkNode(n.lo, f)
		walkNode(n.hi, f)
		walkNode(n.step, f)
	case *callNode:
		walkNode(n.fn, f)
		args(&n.callArgs)
	case *filterNode:
		walkNode(n.x, f)
		args(&n.callArgs)
	case *testNode:
		walkNode(n.x, f)
		args(&n.callArgs)
	case *unaryNode:
		walkNode(n.x, f)
	case *binNode:
		walkNode(n.l, f)
		walkNode(n.r, f)
	case *cmpNode:
		walkNode(n.first, f)
		for _, r := range n.rest {
			walkNode(r, f)
		}
	case *condNode:
		walkNode(n.a, f)
		walkNode(n.c, f)
		walkNode(n.b, f)
	}
}

// newNamespace is namespace(mapping?, **kw).
func newNamespace(args []any, kw map[string]any) (any, error) {
	if len(args) > 1 {
		return nil, errorf("namespace expected at most 1 argument, got %d", len(args))
	}
	vals, err := dictArgs(args, kw)
	if err != nil {
		return nil, err
	}
	return &namespace{vals: vals}, nil
}

// newCycler is cycler(*items).
func newCycler(args []any) (any, error) {
	if len(args) == 0 {
		return nil, errorf("at least one item has to be provided")
	}
	return &cycler{items: args}, nil
}

// newJoiner is joiner(sep=", ").
func newJoiner(args []any, kw map[string]any) (any, error) {
	sep := argOr(args, kw, 0, "sep", ", ")
	return &joiner{sep: Str(sep)}, nil
}
