package playbooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// ansibleTask is how ansible-core itself parsed a task (gen-args.py).
type ansibleTask struct {
	Name       string         `json:"name"`
	Action     string         `json:"action"`
	Args       map[string]any `json:"args"`
	When       []any          `json:"when"`
	Loop       any            `json:"loop"`
	LoopWith   *string        `json:"loop_with"`
	DelegateTo *string        `json:"delegate_to"`
	Notify     any            `json:"notify"`
	Register   *string        `json:"register"`
}

// TestGoldenAgainstAnsibleParse compares, task by task in --list-tasks
// order, the module, arguments, conditions, loop, delegate_to, notify and
// register that tender parsed with what ansible-core's own loader produced
// for the same file (ansible-tasks.json, recorded by gen-args.py).
func TestGoldenAgainstAnsibleParse(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*/ansible-tasks.json")
	if len(files) < 10 {
		t.Fatalf("only %d recorded parses", len(files))
	}
	for _, f := range files {
		dir := filepath.Dir(f)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var want []ansibleTask
			data, _ := os.ReadFile(f)
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "site.yml")
			var pb *Playbook
			var err error
			if _, e := os.Stat(filepath.Join(dir, "TASKLIST")); e == nil {
				pb, err = LoadTasks(path, "all", Options{})
			} else {
				pb, err = Load(path, Options{})
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []*Task
			for _, p := range pb.Plays {
				for _, l := range p.ListTasks() {
					got = append(got, l.Task)
				}
			}
			if len(got) != len(want) {
				t.Fatalf("%d tasks, ansible has %d", len(got), len(want))
			}
			for i, w := range want {
				g := got[i]
				check := func(what string, gv, wv any) {
					t.Helper()
					if !reflect.DeepEqual(normJSON(gv), normJSON(wv)) {
						t.Errorf("%s: task %d %q: %s = %v, ansible: %v", g.Pos, i, w.Name, what, normJSON(gv), normJSON(wv))
					}
				}
				check("action", g.Action, w.Action)
				check("args", orEmpty(g.Args), orEmpty(w.Args))
				for i, c := range w.When {
					if b, ok := c.(bool); ok {
						w.When[i] = pyBool(b) // tender keeps a literal as "True"/"False"
					}
				}
				check("when", g.Conditions(), w.When)
				var with, loop any
				if g.Loop != nil {
					loop = g.Loop.Items
					if g.Loop.With != "" {
						with = g.Loop.With
					}
				}
				check("loop", loop, w.Loop)
				check("loop_with", with, deref2(w.LoopWith))
				check("delegate_to", g.DelegateTo, deref2(w.DelegateTo))
				if s, ok := w.Notify.(string); ok {
					w.Notify = []any{s} // tender always keeps a list
				}
				check("notify", g.Notify, w.Notify)
				check("register", g.Register, deref2(w.Register))
			}
		})
	}
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func deref2(s *string) any {
	if s == nil {
		return ""
	}
	return *s
}

// normJSON makes Go and recorded values comparable: through JSON, with
// empty lists and null alike.
func normJSON(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	if l, ok := out.([]any); ok && len(l) == 0 {
		return nil
	}
	if out == "" {
		return nil
	}
	return out
}
