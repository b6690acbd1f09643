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
// with traits tr. A result from the playbook stays templatable, as in
// Ansible, which does not wrap set_fact's and include_vars's results:
// a changed_when or failed_when error kept in it is templated again
// when a later template reads the variable. Only a failure's msg is
// unsafe there: Ansible wraps the text of an error the task raised
// (its arguments or its when: failing), which may quote the template.
func registered(tr tasks.Traits, data map[string]any) map[string]any {
	if !tr.FromPlaybook {
		return unsafeDeep(data).(map[string]any)
	}
	if msg, ok := data["msg"].(string); ok && data["failed"] == true {
		c := make(map[string]any, len(data))
		for k, v := range data {
			c[k] = v
		}
		c["msg"] = yaml11.Unsafe(msg)
		return c
	}
	return data
}

// unsafeDeep returns a copy of v with every string (not map keys) made
// unsafe.
func unsafeDeep(v any) any { return yaml11.Mark(yaml11.Copy(v)) }
