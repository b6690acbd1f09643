package yaml11

import "github.com/tender-sh/tender/internal/pydict"

// An Unsafe string carries Ansible's "unsafe" mark: it is data, never a
// template. The walkers below are the one place that adds, finds or
// removes the mark in a whole value (lists and maps, all the way down);
// every package that must keep or strip it calls them.

// maxMarkDepth bounds the walks: values nested deeper are left as they are
// (loaders and the template engine refuse such nesting long before).
const maxMarkDepth = 10000

// Mark returns v with every string in it (not map keys) marked, copying
// only the lists and maps it changes; Unsafe strings and non-string
// scalars are kept.
func Mark(v any) any {
	out, _ := walkChanged(v, 0, func(s string) any { return Unsafe(s) })
	return out
}

// MarkOwned is Mark for a value its caller alone holds (just parsed, say):
// its lists and maps are changed in place, none is copied. Past the depth
// Mark goes to, strings are left as they are, as Mark leaves them.
func MarkOwned(v any) any { return markOwned(v, 0) }

func markOwned(v any, depth int) any {
	switch t := v.(type) {
	case string:
		return Unsafe(t)
	case []any:
		if depth <= maxMarkDepth {
			for i, e := range t {
				t[i] = markOwned(e, depth+1)
			}
		}
	case map[string]any:
		if depth <= maxMarkDepth {
			for k, e := range t {
				switch e.(type) {
				case string, []any, map[string]any:
					t[k] = markOwned(e, depth+1)
				}
			}
		}
	}
	return v
}

// Unmark returns v with every Unsafe string made a plain one, copying only
// the lists and maps it changes.
func Unmark(v any) any {
	out, _ := walkUnsafe(v, 0)
	return out
}

// HasMark reports whether v is, or holds in its lists and maps, an Unsafe
// string.
func HasMark(v any) bool { return hasMark(v, 0) }

func hasMark(v any, depth int) bool {
	if depth > maxMarkDepth {
		return false
	}
	switch t := v.(type) {
	case Unsafe:
		return true
	case []any:
		for _, e := range t {
			if hasMark(e, depth+1) {
				return true
			}
		}
	case map[string]any:
		for _, e := range t {
			if hasMark(e, depth+1) {
				return true
			}
		}
	}
	return false
}

// walkChanged applies f to every plain string of v.
func walkChanged(v any, depth int, f func(string) any) (any, bool) {
	switch t := v.(type) {
	case string:
		return f(t), true
	case []any, map[string]any:
		return EachChanged(v, depth, maxMarkDepth, func(e any, d int) (any, bool) { return walkChanged(e, d, f) })
	}
	return v, false
}

// walkUnsafe makes every Unsafe string of v plain.
func walkUnsafe(v any, depth int) (any, bool) {
	switch t := v.(type) {
	case Unsafe:
		return string(t), true
	case []any, map[string]any:
		return EachChanged(v, depth, maxMarkDepth, walkUnsafe)
	}
	return v, false
}

// EachChanged rebuilds the list or map v, at depth, with f applied to its
// elements (at depth+1), copying v only when f changed one (f reports
// whether it did); maps keep their keys' order. Past maxDepth, v is left
// as it is. It is the walk under Mark, Unmark and the template engine's
// own value conversions.
func EachChanged(v any, depth, maxDepth int, f func(any, int) (any, bool)) (any, bool) {
	if depth > maxDepth {
		return v, false
	}
	switch t := v.(type) {
	case []any:
		var out []any
		for i, e := range t {
			p, changed := f(e, depth+1)
			if changed && out == nil {
				out = make([]any, len(t))
				copy(out, t[:i])
			}
			if out != nil {
				out[i] = p
			}
		}
		if out != nil {
			return out, true
		}
	case map[string]any:
		var out map[string]any
		for k, e := range t {
			p, changed := f(e, depth+1)
			if !changed {
				continue
			}
			if out == nil {
				out = make(map[string]any, len(t))
				for k2, e2 := range t {
					out[k2] = e2
				}
			}
			out[k] = p
		}
		if out != nil {
			return pydict.Like(out, t), true
		}
	}
	return v, false
}

// unsafeShallow is a list or mapping tagged !unsafe as Ansible's loader
// makes it: its strings are Unsafe, its other scalars kept, and the lists
// and mappings inside it empty (Ansible marks the container before its
// loader has filled the nested ones, so they are copied empty).
func unsafeShallow(v any) any {
	one := func(x any) any {
		switch y := x.(type) {
		case string:
			return Unsafe(y)
		case []any:
			return []any{}
		case map[string]any:
			return map[string]any{}
		}
		return x
	}
	switch c := v.(type) {
	case []any:
		for i, x := range c {
			c[i] = one(x)
		}
	case map[string]any:
		for k, x := range c {
			c[k] = one(x)
		}
	}
	return v
}
