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

// TestGoldenHandlersAgainstAnsible compares each play's AllHandlers with
// the handlers ansible-core compiles for it (ansible-handlers.json).
func TestGoldenHandlersAgainstAnsible(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*/ansible-handlers.json")
	if len(files) < 10 {
		t.Fatalf("only %d recorded handler lists", len(files))
	}
	for _, f := range files {
		dir := filepath.Dir(f)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var want [][]struct {
				Name   string         `json:"name"`
				Action string         `json:"action"`
				Args   map[string]any `json:"args"`
				Listen any            `json:"listen"`
			}
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
			if len(pb.Plays) != len(want) {
				t.Fatalf("%d plays, ansible has %d", len(pb.Plays), len(want))
			}
			for i, p := range pb.Plays {
				got := p.AllHandlers()
				if len(got) != len(want[i]) {
					t.Fatalf("play %d: %d handlers, ansible has %d", i+1, len(got), len(want[i]))
				}
				for j, w := range want[i] {
					g := got[j]
					if s, ok := w.Listen.(string); ok {
						w.Listen = []any{s}
					}
					if g.DisplayName() != w.Name || g.Action != w.Action ||
						!reflect.DeepEqual(normJSON(orEmpty(g.Args)), normJSON(orEmpty(w.Args))) ||
						!reflect.DeepEqual(normJSON(g.Listen), normJSON(w.Listen)) {
						t.Errorf("play %d handler %d: got %q %s %v listen %v; ansible %q %s %v listen %v",
							i+1, j, g.DisplayName(), g.Action, g.Args, g.Listen, w.Name, w.Action, w.Args, w.Listen)
					}
				}
			}
		})
	}
}
