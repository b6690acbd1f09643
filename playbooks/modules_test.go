package playbooks

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin"
)

// testModules is the registry the loader's tests load with: the modules
// tender runs.
var testModules = builtin.Registry()

// TestKindNames: a kind is named by the loader's action that makes it.
func TestKindNames(t *testing.T) {
	want := map[Kind]string{KindModule: "module", KindBlock: "block", KindImportTasks: "import_tasks",
		KindIncludeTasks: "include_tasks", KindImportRole: "import_role", KindIncludeRole: "include_role", Kind(99): "Kind(99)"}
	for k, name := range want {
		if got := k.String(); got != name {
			t.Errorf("kind %d is %q, want %q", int(k), got, name)
		}
	}
}
