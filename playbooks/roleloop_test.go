package playbooks

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRoleImportsItselfFromAnotherFile: a role may import itself with
// another tasks_from (Ansible loads it again, from that file); importing
// itself from the same file is a loop.
func TestRoleImportsItselfFromAnotherFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"pb.yml":                  "- hosts: all\n  roles: [r]\n",
		"roles/r/tasks/main.yml":  "- import_role: {name: r, tasks_from: other.yml}\n",
		"roles/r/tasks/other.yml": "- debug: msg=other\n",
		"loop.yml":                "- hosts: all\n  roles: [s]\n",
		"roles/s/tasks/main.yml":  "- import_role: {name: s}\n",
	})
	pb, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: testModules})
	if err != nil {
		t.Fatal(err)
	}
	inner := pb.Plays[0].Roles[0].Tasks[0]
	if inner.Target == nil || len(inner.Target.Tasks) != 1 || inner.Target.Tasks[0].Module != "debug" {
		t.Errorf("the role's own other.yml was not imported: %+v", inner)
	}
	if _, err := Load(filepath.Join(dir, "loop.yml"), Options{Modules: testModules}); err == nil || !strings.Contains(err.Error(), "role dependency loop") {
		t.Errorf("a role importing itself from the same file: %v", err)
	}
}
