package playbooks

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestContentModules: a module found in library/ (beside the playbook, in
// a role loaded so far, on the module path) loads with its file; an
// action plugin loads with a warning; a run whose modules leave out
// LibraryModule refuses both, as any module it does not allow.
func TestContentModules(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"pb.yml": `- hosts: all
  roles: [r]
  tasks:
    - pbmod: a=1
    - rolemod: {}
    - pathmod: {}
    - action: pbmod b=2
    - ansible.legacy.pbmod: {}
    - act: {}
`,
		"library/pbmod.py":              "#!/usr/bin/python\n",
		"roles/r/library/rolemod":       "#!/bin/sh\n",
		"roles/r/tasks/main.yml":        "- rolemod: {}\n",
		"roles/r/action_plugins/act.py": "# an action plugin\n",
		"elsewhere/pathmod.sh":          "#!/bin/sh\n",
	})
	pb, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: testModules, ModulePath: []string{filepath.Join(dir, "elsewhere")}})
	if err != nil {
		t.Fatal(err)
	}
	tasks := pb.Plays[0].Tasks
	for i, want := range []string{"library/pbmod.py", "roles/r/library/rolemod", "elsewhere/pathmod.sh", "library/pbmod.py", "library/pbmod.py"} {
		if !strings.HasSuffix(tasks[i].ModuleFile, want) {
			t.Errorf("task %d (%s): module file %q, want …%s", i, tasks[i].Action, tasks[i].ModuleFile, want)
		}
	}
	if tasks[0].Module != "pbmod" || tasks[0].Args["a"] != "1" || tasks[3].Args["b"] != "2" || tasks[4].Module != "pbmod" {
		t.Errorf("modules and args: %+v %+v %+v", tasks[0], tasks[3], tasks[4])
	}
	if !strings.HasSuffix(tasks[5].ActionPlugin, "roles/r/action_plugins/act.py") || tasks[5].ModuleFile != "" {
		t.Errorf("action plugin: %+v", tasks[5])
	}
	if len(pb.Warnings) != 0 {
		// As Ansible: an action plugin loads quietly (the run's
		// ActionPlugins runs it, or the task fails saying why).
		t.Errorf("warnings for the action plugin: %v", pb.Warnings)
	}
	if r := pb.Plays[0].Roles[0]; !strings.HasSuffix(r.Tasks[0].ModuleFile, "roles/r/library/rolemod") {
		t.Errorf("the role's own module: %+v", r.Tasks[0])
	}
	_, err = Load(filepath.Join(dir, "pb.yml"), Options{Modules: restricted(t, "debug")})
	if err == nil || !strings.Contains(err.Error(), `couldn't resolve module/action "pbmod"`) {
		t.Errorf("modules without %q must refuse content modules: %v", LibraryModule, err)
	}
	if _, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: restricted(t, "debug", LibraryModule), ModulePath: []string{filepath.Join(dir, "elsewhere")}}); err != nil {
		t.Errorf("modules with %q: %v", LibraryModule, err)
	}
}

// TestDebuggerRefused: debugger asks for Ansible's interactive debugger,
// which tender does not have: refused at load time, but never.
func TestDebuggerRefused(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"bad.yml":  "- hosts: all\n  tasks:\n    - debug: msg=x\n      debugger: on_failed\n",
		"good.yml": "- hosts: all\n  debugger: never\n  tasks:\n    - debug: msg=x\n",
	})
	if _, err := Load(filepath.Join(dir, "bad.yml"), Options{Modules: testModules}); err == nil || !strings.Contains(err.Error(), "bad.yml:4:17: debugger: on_failed") {
		t.Errorf("debugger: on_failed: %v", err)
	}
	if _, err := Load(filepath.Join(dir, "good.yml"), Options{Modules: testModules}); err != nil {
		t.Errorf("debugger: never: %v", err)
	}
}
