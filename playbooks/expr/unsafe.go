package expr

import "github.com/tender-sh/tender/internal/yaml11"

// Ansible marks data that must never be templated again as unsafe
// (yaml11.Unsafe here): what modules return, what lookups return, the items
// of a with_<lookup> loop. A template that reads such a value — a variable
// whose value holds an unsafe string, or any lookup result — gives an
// unsafe result as a whole (Ansible's AnsibleContext and wrap_var), so a
// value stored from it (set_fact) is not rendered again when it is read.

// hasUnsafe reports whether v is or holds (in lists and dicts) an unsafe
// string, as Ansible's AnsibleContext._is_unsafe.
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
		for _, e := range t {
			if hasUnsafe(e, depth+1) {
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
