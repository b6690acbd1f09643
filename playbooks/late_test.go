package playbooks

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestResolveTemplatedIncludes(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"pb.yml": `- hosts: all
  tasks:
    - include_tasks: "tasks_{{ kind }}.yml"
    - include_role:
        name: "{{ role }}"
    - include_tasks: static.yml
`,
		"tasks_a.yml":                 "- debug: msg=a\n- include_tasks: static.yml\n",
		"static.yml":                  "- debug: msg=static\n",
		"roles/web/tasks/main.yml":    "- debug: msg={{ greeting }}\n",
		"roles/web/defaults/main.yml": "greeting: hi\n",
	})
	pb, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: testModules})
	if err != nil {
		t.Fatal(err)
	}
	tasks := pb.Plays[0].Tasks
	inc, role, static := tasks[0], tasks[1], tasks[2]
	if !inc.Dynamic() || !role.Dynamic() || !static.Dynamic() {
		t.Fatalf("Dynamic: %v %v %v, want every include dynamic", inc.Dynamic(), role.Dynamic(), static.Dynamic())
	}
	if inc.Tasks != nil || role.Target != nil {
		t.Fatal("a templated include was loaded before its name was known")
	}
	// A literal include is previewed at load time, and the run reuses it.
	if len(static.Tasks) != 1 || static.Tasks[0].Args["msg"] != "static" {
		t.Fatalf("literal include not previewed: %+v", static.Tasks)
	}
	if r, err := static.Resolve("static.yml"); err != nil || len(r.Tasks) != 1 || r.Tasks[0] != static.Tasks[0] {
		t.Fatalf("Resolve of the previewed include: %+v %v", r, err)
	}

	var wg sync.WaitGroup
	got := make([]*Task, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := inc.Resolve("tasks_a.yml")
			if err != nil {
				t.Error(err)
			}
			got[i] = r
		}()
	}
	wg.Wait()
	r := got[0]
	for _, g := range got[1:] {
		if g != r {
			t.Fatal("resolving one name twice gave two tasks")
		}
	}
	if r.File == "" || len(r.Tasks) != 2 || r.Tasks[0].Args["msg"] != "a" || r.Tasks[1].Tasks[0].Args["msg"] != "static" {
		t.Fatalf("resolved include: file %q, tasks %+v", r.File, r.Tasks)
	}
	if r.Tasks[0].Parent != r {
		t.Error("included tasks do not hang under the resolved include")
	}

	rr, err := role.Resolve("web")
	if err != nil {
		t.Fatal(err)
	}
	if rr.Target == nil || rr.Target.Name != "web" || len(rr.Target.Tasks) != 1 || rr.Target.Defaults["greeting"] != "hi" {
		t.Fatalf("resolved role: %+v", rr.Target)
	}

	for name, want := range map[string]string{
		"tasks_zz.yml": `pb.yml:3:7: could not find or access "tasks_zz.yml"`,
		"{{ still }}":  "is still a template after rendering",
	} {
		if _, err := inc.Resolve(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Resolve(%q) = %v, want an error containing %q", name, err, want)
		}
	}
	if _, err := role.Resolve("nope"); err == nil || !strings.Contains(err.Error(), "pb.yml:4:7") {
		t.Errorf("Resolve of a missing role = %v, want an error at pb.yml:4:7", err)
	}
}

// TestIncludeIsReadWhenItRuns: an include_tasks is read when it runs, as in
// Ansible. A literal file that is missing or broken loads with a warning,
// and Resolve (the run) reports it; a file that includes itself under a
// condition loads, one level per Resolve; an include among a role's
// handlers finds its file in the role's tasks/.
func TestIncludeIsReadWhenItRuns(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"pb.yml": `- hosts: all
  roles: [r]
  tasks:
    - include_tasks: missing.yml
      when: false
    - include_tasks: broken.yml
    - include_tasks: again.yml
`,
		"broken.yml":                "- nosuchmodule: x\n",
		"again.yml":                 "- debug: msg=once\n- include_tasks: again.yml\n  when: false\n",
		"roles/r/tasks/main.yml":    "- debug: msg=role\n",
		"roles/r/tasks/cleanup.yml": "- debug: msg=cleanup\n",
		"roles/r/handlers/main.yml": "- name: clean\n  include_tasks: cleanup.yml\n",
	})
	pb, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: testModules})
	if err != nil {
		t.Fatal(err)
	}
	warns := pb.Warnings.Error()
	for _, want := range []string{`pb.yml:4:7: could not find or access "missing.yml"`, `broken.yml:1:3: couldn't resolve module/action "nosuchmodule"`} {
		if !strings.Contains(warns, want) {
			t.Errorf("warnings lack %q:\n%s", want, warns)
		}
	}
	tasks := pb.Plays[0].Tasks
	if _, err := tasks[0].Resolve("missing.yml"); err == nil || !strings.Contains(err.Error(), "could not find or access") {
		t.Errorf("Resolve of a missing file: %v", err)
	}
	if _, err := tasks[1].Resolve("broken.yml"); err == nil || !strings.Contains(err.Error(), "nosuchmodule") {
		t.Errorf("Resolve of a broken file: %v", err)
	}
	again, err := tasks[2].Resolve("again.yml")
	if err != nil || len(again.Tasks) != 2 {
		t.Fatalf("Resolve of a self-including file: %+v %v", again, err)
	}
	deeper, err := again.Tasks[1].Resolve("again.yml")
	if err != nil || len(deeper.Tasks) != 2 || deeper.Tasks[1] == again.Tasks[1] {
		t.Fatalf("the self-include's next level: %+v %v", deeper, err)
	}
	h := pb.Plays[0].Roles[0].Handlers[0]
	r, err := h.Resolve("cleanup.yml")
	if err != nil || len(r.Tasks) != 1 || r.Tasks[0].Args["msg"] != "cleanup" {
		t.Fatalf("a role handler's include: %+v %v", r, err)
	}
}
