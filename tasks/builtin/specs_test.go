package builtin

import (
	"testing"

	"github.com/tender-sh/tender/tasks"
)

// TestEveryModuleDescribed: tender doc can show every built-in module, and
// each shows its own Spec.
func TestEveryModuleDescribed(t *testing.T) {
	r := Registry()
	for _, name := range r.Names() {
		f, _ := r.Lookup(name)
		d, ok := f().(tasks.Described)
		if !ok {
			t.Errorf("%s has no Spec for tender doc", name)
			continue
		}
		if s := d.Spec(); s == nil || s.Module != name {
			t.Errorf("%s shows the Spec of %v", name, s)
		}
	}
}

// TestValidateArgumentSpecRegistered: playbooks and roles' argument specs
// reach validate_argument_spec by its short and fully qualified names, and
// the engine treats it as any module (no Traits: its result is not the
// playbook's own, as set_fact's is).
func TestValidateArgumentSpecRegistered(t *testing.T) {
	r := Registry()
	for _, name := range []string{"validate_argument_spec", "ansible.builtin.validate_argument_spec", "ansible.legacy.validate_argument_spec"} {
		d, ok := r.Def(name)
		if !ok {
			t.Fatalf("%s is not registered", name)
		}
		if _, ok := d.New().(validateArgumentSpecModule); !ok || d.Traits != (tasks.Traits{}) || d.RawParams {
			t.Errorf("%s: %+v", name, d)
		}
	}
}
