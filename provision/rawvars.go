package provision

import (
	"github.com/tender-sh/tender/internal/pydict"
)

// rawVars is the vars magic variable: every variable of the task's host
// (not its loop variables), each as written, not rendered: Ansible's
// vars['name'] gives "{{ other }}" for a value that is a template.
// Layers are looked up from the last to the first.
type rawVars []map[string]any

// Lookup implements expr.Scope.
func (r rawVars) Lookup(name string) (any, bool, error) {
	if name == "vars" {
		return nil, false, nil
	}
	for i := len(r) - 1; i >= 0; i-- {
		if v, ok := r[i][name]; ok {
			return v, true, nil
		}
	}
	return nil, false, nil
}

// Keys implements expr.Keyed: every name, the lowest layer's first.
func (r rawVars) Keys() []string {
	seen := map[string]bool{"vars": true}
	var out []string
	for _, l := range r {
		for _, k := range pydict.Keys(l) {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}
