package expr

import (
	"fmt"
	"sort"

	"github.com/tender-sh/tender/internal/pydict"
)

// {% for %} and its `loop` variable.

// iterate returns the items Jinja iterates over for v.
func iterate(v any) ([]any, error) {
	switch t := v.(type) {
	case []any:
		return t, nil
	case map[string]any:
		return toList(pydict.Keys(t)), nil
	case Keyed:
		keys := t.Keys()
		sort.Strings(keys)
		return toList(keys), nil
	case *groupTuple:
		return t.list(), nil
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
	return nil, typeErrorf("'%s' object is not iterable", typeName(v))
}

func (ev *evaluator) renderFor(o *output, n *forNode, frame *local) error {
	seq, err := ev.value(n.iter)
	if err != nil {
		return err
	}
	return ev.loopOver(o, n, frame, seq, 0)
}

// loopOver renders loop n over seq at a recursion depth (0 for the loop
// itself, more for loop(...) calls of a recursive loop).
func (ev *evaluator) loopOver(o *output, n *forNode, frame *local, seq any, depth int) error {
	items, err := iterate(seq)
	if err != nil {
		return ev.wrap(n.iter, err)
	}
	if n.cond != nil {
		var kept []any
		for _, it := range items {
			if err := ev.step(1); err != nil {
				return err
			}
			f := &local{parent: frame, vars: map[string]any{}}
			if err := ev.assign(f, n.tgt, it, n.iter); err != nil {
				return err
			}
			saved := ev.scope
			ev.scope = f
			c, err := ev.value(n.cond)
			ev.scope = saved
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
			return ev.renderBody(o, n.els, frame)
		}
		return nil
	}
	state := &loopState{depth: depth}
	if n.recursive {
		state.recurse = func(ev *evaluator, seq any) (any, error) {
			if depth+1 > maxNesting {
				return nil, errorf("recursive loop nested too deeply")
			}
			sub := ev.newOutput()
			if err := ev.loopOver(sub, n, frame, seq, depth+1); err != nil {
				return nil, err
			}
			return ev.concat(sub)
		}
	}
	f := &local{parent: frame, vars: map[string]any{}}
	for i, it := range items {
		if err := ev.step(1); err != nil {
			return err
		}
		clear(f.vars)
		if err := ev.assign(f, n.tgt, it, n.iter); err != nil {
			return err
		}
		f.vars["loop"] = &loopInfo{items: items, i: i, state: state}
		if err := ev.renderBody(o, n.body, f); err != nil {
			return err
		}
	}
	return nil
}

// loopInfo is the `loop` variable of a {% for %}: index, index0, revindex,
// revindex0, first, last, length, previtem, nextitem, depth, depth0,
// cycle(...), changed(...), and in a recursive loop loop(items).
type loopInfo struct {
	items []any
	i     int
	state *loopState
}

// loopState is what the iterations of one loop share.
type loopState struct {
	depth       int
	lastChanged any
	changedOnce bool
	recurse     func(ev *evaluator, seq any) (any, error)
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
	case "depth":
		return l.state.depth + 1, true
	case "depth0":
		return l.state.depth, true
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

func (l *loopInfo) method(_ *evaluator, name string, args []any, kw map[string]any) (any, bool, error) {
	switch name {
	case "cycle":
		if len(args) == 0 {
			return nil, true, errorf("no items for cycling given")
		}
		return args[l.i%len(args)], true, nil
	case "changed":
		v := args
		if l.state.changedOnce && Equal(l.state.lastChanged, v) {
			return false, true, nil
		}
		l.state.lastChanged, l.state.changedOnce = v, true
		return true, true, nil
	}
	return nil, false, nil
}

func (l *loopInfo) call(ev *evaluator, args []any, kw map[string]any) (any, error) {
	if l.state.recurse == nil {
		return nil, errorf("The loop must have the 'recursive' marker to be called recursively.")
	}
	if len(args) != 1 || len(kw) > 0 {
		return nil, errorf("loop() takes exactly one argument, the items to loop over")
	}
	return l.state.recurse(ev, args[0])
}

func (l *loopInfo) str() string      { return fmt.Sprintf("<LoopContext %d/%d>", l.i+1, len(l.items)) }
func (l *loopInfo) repr() string     { return l.str() }
func (l *loopInfo) typeName() string { return "LoopContext" }
