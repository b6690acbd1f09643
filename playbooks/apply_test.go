package playbooks

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// apply: takes a block's keywords, errors at their positions; include_role
// takes it for the role's tasks; an import refuses it, as Ansible does.
func TestIncludeApply(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"ok.yml":                 "- hosts: all\n  tasks:\n    - include_tasks:\n        file: inc.yml\n        apply: {ignore_errors: true, tags: [x]}\n",
		"inc.yml":                "- debug: msg=hi\n",
		"bad.yml":                "- hosts: all\n  tasks:\n    - include_tasks:\n        file: inc.yml\n        apply: {nope: 1}\n",
		"list.yml":               "- hosts: all\n  tasks:\n    - include_tasks:\n        file: inc.yml\n        apply: [1]\n",
		"role.yml":               "- hosts: all\n  tasks:\n    - include_role:\n        name: r\n        apply: {tags: [x]}\n",
		"import.yml":             "- hosts: all\n  tasks:\n    - import_role:\n        name: r\n        apply: {tags: [x]}\n",
		"roles/r/tasks/main.yml": "- debug: msg=r\n",
	})
	pb, err := Load(filepath.Join(dir, "ok.yml"), Options{Modules: testModules})
	if err != nil {
		t.Fatal(err)
	}
	inc := pb.Plays[0].Tasks[0]
	if inc.Apply == nil || !inc.Apply.IgnoreErrors.True() || len(inc.Tasks) != 1 || !inc.Tasks[0].Parent.IgnoreErrors.True() || inc.Tasks[0].Parent.Kind != KindBlock {
		t.Fatalf("apply block %+v, included %+v", inc.Apply, inc.Tasks)
	}
	pb, err = Load(filepath.Join(dir, "role.yml"), Options{Modules: testModules})
	if err != nil {
		t.Fatal(err)
	}
	role := pb.Plays[0].Tasks[0].Target
	if role == nil || len(role.Tasks) != 1 || role.Tasks[0].Parent.Kind != KindBlock || !slices.Contains(role.Tasks[0].EffectiveTags, "x") {
		t.Fatalf("include_role's apply: role %+v", role)
	}
	for file, want := range map[string]string{
		"bad.yml":    "bad.yml:5:17:",
		"list.yml":   "Expected a dict for apply",
		"import.yml": "Invalid options for import_role: apply",
	} {
		_, err := Load(filepath.Join(dir, file), Options{Modules: testModules})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", file, err, want)
		}
	}
}
