package provision

import (
	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/playbooks"
)

// What a module returns came from the host: as Ansible wraps it
// (wrap_var), every string of a registered result and of the facts a
// module returns or setup gathers is unsafe (yaml11.Unsafe), so that a
// template that reads it never templates it again. A host whose hostname
// or command output holds "{{ … }}" cannot make the controller evaluate
// it. set_fact and include_vars are the exceptions, as in Ansible: their
// values come from the playbook.

// cleanFacts are the actions whose results are not wrapped.
var cleanFacts = map[string]bool{"set_fact": true, "include_vars": true}

// registered is the value register stores for t's result. A failure is
// always unsafe: its message may quote the template that failed.
func registered(t *playbooks.Task, data map[string]any) map[string]any {
	if cleanFacts[t.Module] && data["failed"] != true {
		return data
	}
	return unsafeDeep(data).(map[string]any)
}

// unsafeDeep returns v with every string (not map keys) made unsafe.
func unsafeDeep(v any) any {
	switch x := v.(type) {
	case string:
		return yaml11.Unsafe(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = unsafeDeep(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = unsafeDeep(e)
		}
		return out
	}
	return v
}

// plainDeep returns v with every unsafe string made a plain one: what a
// module receives as arguments, or from Env.Eval, is data, not templates.
func plainDeep(v any) any {
	switch x := v.(type) {
	case yaml11.Unsafe:
		return string(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plainDeep(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = plainDeep(e)
		}
		return out
	}
	return v
}
