package expr

// The statements of a template and how they render.

type tnode interface{}

type (
	textNode string
	outNode  struct{ n node } // {{ expr }}, {% print expr %}
	ifNode   struct {
		conds  []node
		bodies [][]tnode
		els    []tnode
	}
	forNode struct {
		tgt       *target
		iter      node
		cond      node
		recursive bool
		body      []tnode
		els       []tnode
	}
	setNode struct {
		tgt *target
		val node
	}
	// setBlockNode is {% set x %}…{% endset %}, optionally {% set x | f %}.
	setBlockNode struct {
		tgt    *target
		filter node // over blockInput, or nil
		body   []tnode
	}
	filterBlockNode struct { // {% filter f | g %}…{% endfilter %}
		filter node
		body   []tnode
	}
	withNode struct {
		tgts []*target
		vals []node
		body []tnode
	}
	macroNode struct {
		at   int
		name string
		sig  *signature
		body []tnode
	}
	callBlockNode struct { // {% call(params) macro(args) %}…{% endcall %}
		at   int
		sig  *signature
		call node
		body []tnode
	}
	importNode struct { // {% import name as x %}
		at          int
		name        node
		as          string
		withContext bool
	}
	fromNode struct { // {% from name import a, b as c %}
		at             int
		name           node
		names, aliases []string
		withContext    bool
	}
)

// blockInput is the value a filter block or a block set filters: its
// rendered body.
type blockInput struct{ base }

func (ev *evaluator) renderBody(o *output, body []tnode, frame *local) error {
	saved := ev.scope
	ev.scope = frame
	defer func() { ev.scope = saved }()
	for _, n := range body {
		if o.b.Len() > maxSize {
			return &Error{Src: ev.src, Col: 1, Msg: "template output too large"}
		}
		if err := ev.renderNode(o, n, frame); err != nil {
			return err
		}
		// the output written since the last count is built memory
		if grown := o.b.Len() - o.counted; grown > 0 {
			o.counted = o.b.Len()
			if err := ev.st.b.alloc(int64(grown)); err != nil {
				return ev.limit(err)
			}
		}
	}
	return nil
}

func (ev *evaluator) renderNode(o *output, n tnode, frame *local) error {
	switch n := n.(type) {
	case textNode:
		o.text(string(n))
	case outNode:
		v, err := ev.printed(n.n)
		if err != nil {
			return err
		}
		o.value(v)
	case *setNode:
		v, err := ev.value(n.val)
		if err != nil {
			return err
		}
		return ev.assign(frame, n.tgt, v, n.val)
	case *setBlockNode:
		v, err := ev.capture(n.body, frame)
		if err == nil && n.filter != nil {
			v, err = ev.filterInput(n.filter, v)
		}
		if err != nil {
			return err
		}
		return ev.assign(frame, n.tgt, v, n.filter)
	case *filterBlockNode:
		v, err := ev.capture(n.body, frame)
		if err == nil {
			v, err = ev.filterInput(n.filter, v)
		}
		if err != nil {
			return err
		}
		o.value(v)
	case *withNode:
		vals, err := ev.values(n.vals)
		if err != nil {
			return err
		}
		inner := &local{parent: frame, vars: map[string]any{}}
		for i, t := range n.tgts {
			if err := ev.assign(inner, t, vals[i], n.vals[i]); err != nil {
				return err
			}
		}
		return ev.renderBody(o, n.body, inner)
	case *macroNode:
		frame.vars[n.name] = ev.newMacro(n.name, n.sig, n.body, frame)
	case *callBlockNode:
		caller := ev.newMacro("caller", n.sig, n.body, frame)
		v, err := ev.evalCallWith(n.call.(*callNode), caller)
		if err != nil {
			return err
		}
		if _, u := v.(*undefined); u {
			return ev.wrap(n.call, v.(*undefined).err())
		}
		o.value(v)
	case *importNode:
		mod, err := ev.importTemplate(n.name, n.at, n.withContext, frame)
		if err != nil {
			return err
		}
		frame.vars[n.as] = mod
	case *fromNode:
		mod, err := ev.importTemplate(n.name, n.at, n.withContext, frame)
		if err != nil {
			return err
		}
		for i, name := range n.names {
			v, ok := mod.exports[name]
			if !ok {
				msg := "the template " + Repr(mod.name) + " does not export the requested name " + Repr(name)
				v = &undefined{name: name, msg: msg, hint: msg, key: name}
			}
			frame.vars[n.aliases[i]] = v
		}
	case *ifNode:
		for i, c := range n.conds {
			v, err := ev.value(c)
			if err != nil {
				return err
			}
			if Truthy(v) {
				return ev.renderBody(o, n.bodies[i], frame)
			}
		}
		if n.els != nil {
			return ev.renderBody(o, n.els, frame)
		}
	case *forNode:
		return ev.renderFor(o, n, frame)
	case *includeNode:
		return ev.include(o, n, frame)
	}
	return nil
}

// capture renders body in a frame of its own and joins its output with
// the environment's concat (a block set, a filter block, a macro).
func (ev *evaluator) capture(body []tnode, frame *local) (any, error) {
	o := ev.newOutput()
	if err := ev.renderBody(o, body, &local{parent: frame, vars: map[string]any{}}); err != nil {
		return nil, err
	}
	return ev.concat(o)
}

// filterInput applies a filter chain (built over blockInput) to v.
func (ev *evaluator) filterInput(chain node, v any) (any, error) {
	saved := ev.input
	ev.input = v
	defer func() { ev.input = saved }()
	return ev.value(chain)
}

// assign binds v to a target: a name, a tuple of targets (v is unpacked)
// or a namespace's attribute.
func (ev *evaluator) assign(frame *local, t *target, v any, at node) error {
	switch {
	case t.ns != "":
		nsv, ok, err := lookupIn(frame, t.ns, ev.st.b)
		if err != nil {
			return err
		}
		ns, isNS := nsv.(*namespace)
		if !ok || !isNS {
			return ev.wrap(at, errorf("cannot assign attribute on non-namespace object"))
		}
		ns.set(t.name, v)
	case t.items != nil:
		parts, err := iterate(v)
		if err != nil {
			return ev.wrap(at, errorf("cannot unpack non-iterable %s object", typeName(v)))
		}
		if len(parts) != len(t.items) {
			if len(parts) > len(t.items) {
				return ev.wrap(at, errorf("too many values to unpack (expected %d)", len(t.items)))
			}
			return ev.wrap(at, errorf("not enough values to unpack (expected %d, got %d)", len(t.items), len(parts)))
		}
		for i, sub := range t.items {
			if err := ev.assign(frame, sub, parts[i], at); err != nil {
				return err
			}
		}
	default:
		frame.vars[t.name] = v
	}
	return nil
}

// importTemplate runs the template named by name for an import: its
// output is dropped, its top-level variables and macros (those not
// starting with "_") are what it exports. Without context it sees only
// the globals, as in Jinja.
func (ev *evaluator) importTemplate(name node, at int, withContext bool, frame *local) (*tmplModule, error) {
	tm, path, dirs, err := ev.findTemplateFile(name, at, false)
	if err != nil {
		return nil, err
	}
	var scope Scope = envScope{envOf(frame)}
	if withContext {
		scope = withoutLoop{frame}
	}
	top, err := ev.renderNested(&output{}, tm, scope, dirs)
	if err != nil {
		return nil, &Error{Src: ev.src, Col: at + 1, Msg: "in imported template " + path + ": " + err.Error(), Err: err}
	}
	mod := &tmplModule{name: Str(ev.mustValue(name)), exports: map[string]any{}}
	for k, v := range top.vars {
		if k != "" && k[0] != '_' {
			mod.exports[k] = v
		}
	}
	return mod, nil
}

// mustValue evaluates a node already evaluated successfully once.
func (ev *evaluator) mustValue(n node) any {
	v, _ := ev.value(n)
	return v
}
