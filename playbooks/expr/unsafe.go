package expr

import "github.com/tender-sh/tender/internal/yaml11"

// Ansible marks data that must never be templated again as unsafe
// (yaml11.Unsafe here): what modules return, what lookups return, the items
// of a with_<lookup> loop. A template that reads such a value — a variable
// whose value holds an unsafe string, or any lookup result — gives an
// unsafe result as a whole (Ansible's AnsibleContext and wrap_var), so a
// value stored from it (set_fact) is not rendered again when it is read.

// HasUnsafe reports whether v is or holds an unsafe value, as a template
// that reads v sees it (see hasUnsafe).
func HasUnsafe(v any) bool { return hasUnsafe(v, 0) }

// hasUnsafe reports whether v is or holds (in lists and dicts) an unsafe
// string, as Ansible's AnsibleContext._is_unsafe. A dict key that still
// looks like a template counts too: keys are never rendered, so such a
// key came from data (a host's output parsed, a fact's name), and Go's
// map keys cannot carry the mark themselves.
func hasUnsafe(v any, depth int) bool {
	if depth > maxNesting {
		return false
	}
	switch t := v.(type) {
	case yaml11.Unsafe, nativeUnsafe:
		return true
	case []any:
		for _, e := range t {
			if hasUnsafe(e, depth+1) {
				return true
			}
		}
	case map[string]any:
		for k, e := range t {
			if hasUnsafe(e, depth+1) || IsTemplate(k) {
				return true
			}
		}
	}
	return false
}

// unsafeDeep returns v with every string in it (not dict keys) unsafe,
// copying the lists and dicts it changes, as Ansible's wrap_var.
func unsafeDeep(v any) any {
	out, _ := unsafeChanged(v, 0)
	return out
}

func unsafeChanged(v any, depth int) (any, bool) {
	switch t := v.(type) {
	case string:
		return yaml11.Unsafe(t), true
	case nativeText:
		return nativeUnsafe(t), true
	case []any, map[string]any:
		return elementsChanged(t, depth, unsafeChanged)
	}
	return v, false
}

// watch is what an evaluation does with a value it read by name: a value
// that is or holds an unsafe one makes the evaluation unsafe; a lazily
// resolved dict (hostvars, one host's variables) is wrapped so that every
// value read through it later is watched the same way, whichever path
// reads it (an attribute, an index, a filter's attribute, a method,
// materialize). So `a{{ hostvars[h].r.stdout }}` is unsafe when that
// result came from a host, and a value of hostvars that did not stays
// plain, as in Ansible.
func (st *evalState) watch(v any) any {
	switch s := v.(type) {
	case watched, watchedKeyed:
		return v
	case Keyed:
		return watchedKeyed{watched{s, st}}
	case Scope:
		return watched{s, st}
	}
	if !st.unsafe && hasUnsafe(v, 0) {
		st.unsafe = true
	}
	return v
}

// watched is a Scope read during an evaluation (see watch).
type watched struct {
	s  Scope
	st *evalState
}

// Lookup implements Scope, watching what it returns.
func (w watched) Lookup(name string) (any, bool, error) {
	v, ok, err := w.s.Lookup(name)
	if ok && err == nil {
		v = w.st.watch(v)
	}
	return v, ok, err
}

func (w watched) lookupNative(name string, b *budget) (any, bool, error) {
	v, ok, err := lookupIn(w.s, name, b)
	if ok && err == nil {
		v = w.st.watch(v)
	}
	return v, ok, err
}

// watchedKeyed is a watched Keyed scope.
type watchedKeyed struct{ watched }

// Keys implements Keyed.
func (w watchedKeyed) Keys() []string { return w.s.(Keyed).Keys() }

// unwatch is the Scope a watched one wraps, for a value that leaves the
// evaluation.
func unwatch(v any) any {
	switch w := v.(type) {
	case watched:
		return w.s
	case watchedKeyed:
		return w.s
	}
	return v
}
