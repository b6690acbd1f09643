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
	pb, err := Load(filepath.Join(dir, "pb.yml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	tasks := pb.Plays[0].Tasks
	inc, role, static := tasks[0], tasks[1], tasks[2]
	if !inc.Dynamic() || !role.Dynamic() || static.Dynamic() {
		t.Fatalf("Dynamic: %v %v %v, want true true false", inc.Dynamic(), role.Dynamic(), static.Dynamic())
	}
	if inc.Tasks != nil || role.Target != nil {
		t.Fatal("a templated include was loaded before its name was known")
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
