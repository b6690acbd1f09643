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
