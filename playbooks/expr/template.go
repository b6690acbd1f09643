package expr

import (
	"sort"
	"strings"
)

// Template is a parsed template string: text with {{ expr }}, {% if %},
// {% for %}, {% set %}, {% include %}, {% raw %} and {# comments #}, with Jinja's
// whitespace control ({%- -%}) and Ansible's trim_blocks (the first newline
// after a block tag is removed). Immutable and safe for concurrent use.
type Template struct {
	src    string
	body   []tnode
	single node   // set when the template is exactly one {{ expr }}
	file   bool   // a template file's content (ParseFileTemplate)
	path   string // the template file's path, when known (ParseFileTemplateAt)
}

type tnode interface{}

type (
	textNode string
	outNode  struct{ n node }
	ifNode   struct {
		conds  []node
		bodies [][]tnode
		els    []tnode
	}
	forNode struct {
		targets []string
		iter    node
		cond    node
		body    []tnode
		els     []tnode
	}
	setNode struct {
		target string
		val    node
	}
)

// IsTemplate reports whether s contains template markup ({{, {% or {#).
func IsTemplate(s string) bool {
	return strings.Contains(s, "{{") || strings.Contains(s, "{%") || strings.Contains(s, "{#")
}

// String returns the source text.
func (t *Template) String() string { return t.src }

// Render renders s in scope. A string without template markup is returned
// unchanged; see Template.Render for the rest.
func Render(s string, scope Scope) (any, error) {
	if !IsTemplate(s) {
		return s, nil
	}
	t, err := ParseTemplate(s)
	if err != nil {
		return nil, err
	}
	return t.Render(scope)
}

// Render renders the template. A template that is exactly one {{ expr }}
// returns a value as ansible-core 2.14 does (see concatResult: a list stays
// a list, Omit stays Omit, a number becomes text unless the template is a
// bare variable name); any other template returns a string, with values rendered
// as Python's str() and None as the empty string, as Ansible does.
func (t *Template) Render(scope Scope) (any, error) {
	ev := newEvaluator(scope, t.src)
	ev.top = t
	if t.single != nil {
		v, err := ev.value(t.single)
		if err != nil {
			return nil, err
		}
		if _, bare := t.single.(*nameNode); bare {
			// Ansible's shortcut for "{{ name }}": a number, a boolean or
			// None is passed through untouched.
			switch v.(type) {
			case nil, bool, int, float64:
				return v, nil
			}
		}
		return concatResult(v), nil
	}
	var b strings.Builder
	if err := ev.renderBody(&b, t.body, &local{parent: scope, vars: map[string]any{}}); err != nil {
		return nil, err
	}
	return keepTrailingNewlines(t.src, b.String()), nil
}

// keepTrailingNewlines gives out as many trailing newlines as src has, as
// Ansible does after Jinja (whose trim_blocks may take the last one away).
func keepTrailingNewlines(src, out string) string {
	want := len(src) - len(strings.TrimRight(src, "\n"))
	have := len(out) - len(strings.TrimRight(out, "\n"))
	if want > have {
		out += strings.Repeat("\n", want-have)
	}
	return out
}

func (ev *evaluator) renderBody(b *strings.Builder, body []tnode, frame *local) error {
	saved := ev.scope
	ev.scope = frame
	defer func() { ev.scope = saved }()
	for _, n := range body {
		if b.Len() > maxSize {
			return &Error{Src: ev.src, Col: 1, Msg: "template output too large"}
		}
		switch n := n.(type) {
		case textNode:
			b.WriteString(string(n))
		case outNode:
			v, err := ev.value(n.n)
			if err != nil {
				return err
			}
			if v != nil {
				b.WriteString(Str(v))
			}
		case *setNode:
			v, err := ev.value(n.val)
			if err != nil {
				return err
			}
			frame.vars[n.target] = v
		case *ifNode:
			done := false
			for i, c := range n.conds {
				v, err := ev.value(c)
				if err != nil {
					return err
				}
				if Truthy(v) {
					if err := ev.renderBody(b, n.bodies[i], frame); err != nil {
						return err
					}
					done = true
					break
				}
			}
			if !done && n.els != nil {
				if err := ev.renderBody(b, n.els, frame); err != nil {
					return err
				}
			}
		case *forNode:
			if err := ev.renderFor(b, n, frame); err != nil {
				return err
			}
		case *includeNode:
			if err := ev.include(b, n, frame); err != nil {
				return err
			}
		}
	}
	return nil
}

// iterate returns the items Jinja iterates over for v.
func iterate(v any) ([]any, error) {
	switch t := v.(type) {
	case []any:
		return t, nil
	case map[string]any:
		return toList(sortedKeys(t)), nil
	case Keyed:
		keys := t.Keys()
		sort.Strings(keys)
		return toList(keys), nil
	}
	if s, ok := text(v); ok {
		if len(s) > maxItems {
			return nil, errorf("string too long to iterate")
		}
		out := []any{}
		for _, r := range s {
			out = append(out, string(r))
		}
		return out, nil
	}
	return nil, errorf("'%s' object is not iterable", typeName(v))
}

func (ev *evaluator) renderFor(b *strings.Builder, n *forNode, frame *local) error {
	seq, err := ev.value(n.iter)
	if err != nil {
		return err
	}
	items, err := iterate(seq)
	if err != nil {
		return ev.wrap(n.iter, err)
	}
	bind := func(f *local, item any) error {
		if len(n.targets) == 1 {
			f.vars[n.targets[0]] = item
			return nil
		}
		parts, ok := item.([]any)
		if !ok || len(parts) != len(n.targets) {
			return ev.wrap(n.iter, errorf("cannot unpack %s into %d names", Repr(item), len(n.targets)))
		}
		for i, t := range n.targets {
			f.vars[t] = parts[i]
		}
		return nil
	}
	if n.cond != nil {
		var kept []any
		for _, it := range items {
			if err := ev.step(1); err != nil {
				return err
			}
			f := &local{parent: frame, vars: map[string]any{}}
			if err := bind(f, it); err != nil {
				return err
			}
			ev.scope = f
			c, err := ev.value(n.cond)
			ev.scope = frame
			if err != nil {
				return err
			}
			if Truthy(c) {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	if len(items) == 0 {
		if n.els != nil {
			return ev.renderBody(b, n.els, frame)
		}
		return nil
	}
	f := &local{parent: frame, vars: map[string]any{}}
	for i, it := range items {
		if err := ev.step(1); err != nil {
			return err
		}
		clear(f.vars)
		if err := bind(f, it); err != nil {
			return err
		}
		f.vars["loop"] = &loopInfo{items: items, i: i}
		if err := ev.renderBody(b, n.body, f); err != nil {
			return err
		}
	}
	return nil
}

// loopInfo is the `loop` variable of a {% for %}: index, index0, revindex,
// revindex0, first, last, length, previtem, nextitem.
type loopInfo struct {
	items []any
	i     int
}

func (l *loopInfo) attr(name string) (any, bool) {
	n := len(l.items)
	switch name {
	case "index":
		return l.i + 1, true
	case "index0":
		return l.i, true
	case "revindex":
		return n - l.i, true
	case "revindex0":
		return n - l.i - 1, true
	case "first":
		return l.i == 0, true
	case "last":
		return l.i == n-1, true
	case "length":
		return n, true
	case "previtem":
		if l.i > 0 {
			return l.items[l.i-1], true
		}
	case "nextitem":
		if l.i+1 < n {
			return l.items[l.i+1], true
		}
	}
	return nil, false
}

// native evaluates a one-{{ expr }} template to the expression's own value,
// as a filter or test inside the template sees it (the case table records
// expressions that way, with type_debug).
func (t *Template) native(scope Scope) (any, error) {
	if t.single == nil {
		return t.Render(scope)
	}
	ev := newEvaluator(scope, t.src)
	return ev.value(t.single)
}

// concatResult is what ansible-core 2.14 (without jinja2_native) makes of a
// template that is one {{ expr }} (other than a bare variable name, see
// Render): lists, dicts and booleans keep their type (Ansible turns them into
// text and literal_evals them back), None becomes the empty string, and
// numbers become their text: "{{ 5 + 1 }}" is the string "6", so `x == 6` is
// false and `x | int == 6` true, as in Ansible.
func concatResult(v any) any {
	switch x := v.(type) {
	case nil:
		return ""
	case int, float64:
		return Str(x)
	}
	return v
}
