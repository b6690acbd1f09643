package provision

import (
	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/tasks"
)

// What a module returns came from the host: as Ansible wraps it
// (wrap_var), every string of a registered result and of the facts a
// module returns or setup gathers is unsafe (yaml11.Unsafe), so that a
// template that reads it never templates it again. A host whose hostname
// or command output holds "{{ … }}" cannot make the controller evaluate
// it. set_fact and include_vars are the exceptions, as in Ansible: their
// values come from the playbook.

// registered is the value register stores for the result of a module
// with traits tr. A failure is always unsafe: its message may quote the
// template that failed.
func registered(tr tasks.Traits, data map[string]any) map[string]any {
	if tr.FromPlaybook && data["failed"] != true {
		return data
	}
	return unsafeDeep(data).(map[string]any)
}

// unsafeDeep returns a copy of v with every string (not map keys) made
// unsafe.
func unsafeDeep(v any) any { return yaml11.Mark(yaml11.Copy(v)) }
