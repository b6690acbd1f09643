package playbooks

import (
	"path/filepath"
	"reflect"
	"testing"
)

// TestPlaybookModules: the modules of every task, handler, role and
// literal import or include, canonical, each once; a templated include
// brings none it can know.
func TestPlaybookModules(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"pb.yml": `- hosts: all
  roles: [app]
  pre_tasks:
    - ansible.builtin.command: "true"
  tasks:
    - block:
        - import_tasks: inner.yml
      rescue:
        - debug: msg=x
    - include_tasks: "{{ which }}.yml"
  handlers:
    - name: restart
      service: name=app state=restarted
`,
		"inner.yml":                "- copy: content=x dest=/tmp/x\n- command: 'false'\n",
		"roles/app/tasks/main.yml": "- file: path=/srv state=directory\n",
	})
	pb, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: testModules})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"command", "copy", "debug", "file", "service"}
	if got := pb.Modules(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Modules() = %q, want %q", got, want)
	}
}
