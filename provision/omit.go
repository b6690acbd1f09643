package provision

import (
	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/playbooks/expr"
)

// removeOmit drops omit from a module argument's value as Ansible's
// remove_omit does: every key of a dict (at any depth, dicts in lists
// too) whose value is omit is left out; omit as a list's item stays, as
// its placeholder text.
func removeOmit(v any) any {
	switch t := v.(type) {
	case map[string]any:
		b := pydict.NewBuilder(len(t))
		for _, k := range pydict.Keys(t) {
			if !expr.IsOmit(t[k]) {
				b.Set(k, removeOmit(t[k]))
			}
		}
		return b.Map()
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			if expr.IsOmit(e) {
				out[i] = expr.Str(e)
				continue
			}
			out[i] = removeOmit(e)
		}
		return out
	}
	return v
}
