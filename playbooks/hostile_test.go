package playbooks

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/hostile"
)

// A "billion laughs" document in a play's vars or a role's defaults is refused
// with its file, line and alias, at once and in bounded memory.
func TestAliasBombBounded(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"vars.yml":                  "- hosts: all\n  vars:\n" + hostile.YAMLBomb(9, "    ") + "  tasks: []\n",
		"role.yml":                  "- hosts: all\n  roles: [r]\n",
		"roles/r/defaults/main.yml": hostile.YAMLBomb(9, ""),
		"roles/r/tasks/main.yml":    "- debug: msg=x\n",
	})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for file, at := range map[string]string{"vars.yml": "vars.yml:", "role.yml": "defaults/main.yml:"} {
		_, err := Load(filepath.Join(dir, file), Options{Modules: testModules})
		if err == nil || !strings.Contains(err.Error(), at) || !strings.Contains(err.Error(), "aliases expand to more than") {
			t.Errorf("%s: err = %v, want the alias budget's error in %s", file, err, at)
		}
	}
	runtime.ReadMemStats(&after)
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 64<<20 {
		t.Fatalf("refusing the documents allocated %d MiB", grown>>20)
	}
}

// The alias budget is the file's, not each value's: tasks that each loop
// over one anchor below the budget are refused once together they cross
// it, rather than each handing the engine a copy to walk.
func TestAliasBombSplitAcrossTasks(t *testing.T) {
	var b strings.Builder
	b.WriteString("- hosts: all\n  vars:\n" + hostile.YAMLBomb(4, "    ") + "  tasks:\n")
	for range 40 {
		b.WriteString("    - debug: msg={{ item }}\n      loop: *a4\n")
	}
	dir := writeFiles(t, map[string]string{"pb.yml": b.String()})
	_, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: testModules})
	if err == nil || !strings.Contains(err.Error(), "pb.yml:") || !strings.Contains(err.Error(), "aliases expand to more than") {
		t.Errorf("err = %v, want the alias budget's error in pb.yml", err)
	}
}
