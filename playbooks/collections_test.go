package playbooks

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
)

// collectionModules are the builtin registry's debug and library, and a
// module known only by its collection's name, my.tools.nmcli (its short
// name here is netcli, so a task that writes nmcli finds it only through
// a collections list: ansible.builtin's routing sends nmcli to
// community.general.nmcli, which this registry does not hold).
func collectionModules(t *testing.T) *tasks.Registry {
	r := restricted(t, "debug", LibraryModule)
	r.Add(tasks.Def{Name: "netcli", Aliases: []string{"my.tools.nmcli"}, New: func() tasks.Module { return netcliModule{} }})
	return r
}

// netcliModule is a module the loader resolves and never runs.
type netcliModule struct{}

func (netcliModule) Run(context.Context, *tasks.Env, tasks.Args) (tasks.Result, error) {
	return tasks.Result{}, nil
}

// TestCollectionsKeyword: an unqualified module name is looked for in the
// collections a task, its block or its play lists, in order, then as a
// builtin or library module unless the list names ansible.builtin or
// ansible.legacy; a role's tasks use its meta/main.yml's list, not the
// play's.
func TestCollectionsKeyword(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"pb.yml": `- hosts: all
  collections: [my.tools]
  roles: [r]
  tasks:
    - nmcli: {msg: play}
    - libmod: {}
    - block:
        - nmcli: {msg: block}
      collections: [other.ns, my.tools]
    - nmcli: {msg: task}
      collections: my.tools
`,
		"library/libmod.py":      "#!/usr/bin/python\n",
		"roles/r/meta/main.yml":  "collections: [my.tools]\n",
		"roles/r/tasks/main.yml": "- nmcli: {msg: role}\n- include_tasks: more.yml\n",
		"roles/r/tasks/more.yml": "- nmcli: {msg: included}\n",
	})
	pb, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: collectionModules(t)})
	if err != nil {
		t.Fatal(err)
	}
	p := pb.Plays[0]
	tasks := []*Task{p.Tasks[0], p.Tasks[2].Block[0], p.Tasks[3], p.Roles[0].Tasks[0]}
	for i, task := range tasks {
		if task.Module != "netcli" {
			t.Errorf("task %d: module %q, want netcli (my.tools.nmcli)", i, task.Module)
		}
	}
	if !strings.HasSuffix(p.Tasks[1].ModuleFile, "library/libmod.py") {
		t.Errorf("a library module after the list: %+v", p.Tasks[1])
	}

	for name, pbText := range map[string]string{
		"no list": "- hosts: all\n  tasks:\n    - nmcli: {}\n",
		// ansible.builtin in the list: no implicit ansible.legacy, so
		// library/ is not searched.
		"builtin only": "- hosts: all\n  collections: [ansible.builtin]\n  tasks:\n    - libmod: {}\n",
		// A role does not take the play's list.
		"role": "- hosts: all\n  collections: [my.tools]\n  roles: [plain]\n",
	} {
		dir := writeFiles(t, map[string]string{
			"pb.yml":                     pbText,
			"library/libmod.py":          "#!/usr/bin/python\n",
			"roles/plain/tasks/main.yml": "- nmcli: {}\n",
		})
		_, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: collectionModules(t)})
		if err == nil || !strings.Contains(err.Error(), "couldn't resolve module/action") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
