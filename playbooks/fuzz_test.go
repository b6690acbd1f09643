package playbooks

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds arbitrary YAML to Load as a playbook: it may fail, never
// panic, and a failure is always an ErrorList with positions.
func FuzzLoad(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*/*/site.yml")
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("- hosts: all\n  tasks:\n    - block: &a\n        - debug: *a\n"))
	f.Add([]byte("- &x {hosts: all, tasks: [{<<: *x}]}\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "site.yml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Skip()
		}
		pb, err := Load(path, Options{Modules: testModules})
		if err != nil {
			if _, ok := err.(ErrorList); !ok {
				t.Fatalf("error %T is not an ErrorList", err)
			}
			return
		}
		for _, p := range pb.Plays {
			_ = p.ListTasks()
			_ = p.RoleOrder()
			Walk(p.Tasks, func(t *Task) bool { _ = t.Conditions(); _ = t.DisplayName(); return true })
		}
	})
}
