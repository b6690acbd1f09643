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

	Become       any   `json:"become"`
	BecomeUser   any   `json:"become_user"`
	IgnoreErrors any   `json:"ignore_errors"`
	NoLog        any   `json:"no_log"`
	RunOnce      any   `json:"run_once"`
	CheckMode    any   `json:"check_mode"`
	Environment  []any `json:"environment"`
}

// effective resolves a keyword for a task the way the engine will: the
// play's value, overridden by each level (Task.Levels) that sets it,
// levels above a dynamic include excepted.
func effective(p *Play, t *Task, get func(*Keywords) (any, bool)) any {
	v, ok := get(&p.Keywords)
	if !ok {
		v = nil
	}
	for _, l := range t.Levels() {
		if l.VarsOnly {
			continue
		}
		if x, ok := get(l.Keywords); ok {
			v = x
		}
	}
	return v
}

func boolKW(f func(*Keywords) Bool) func(*Keywords) (any, bool) {
	return func(k *Keywords) (any, bool) {
		b := f(k)
		if !b.Set {
			return nil, false
		}
		if b.Expr != "" {
			return b.Expr, true
		}
		return b.Value, true
	}
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
				pb, err = LoadTasks(path, "all", Options{Modules: testModules})
			} else {
				pb, err = Load(path, Options{Modules: testModules})
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []*Task
			var play []*Play
			for _, p := range pb.Plays {
				for _, l := range p.ListTasks() {
					got = append(got, l.Task)
					play = append(play, p)
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
				// Inherited keywords; an unset keyword is Ansible's default.
				orFalse := func(v any) any {
					if v == nil {
						return false
					}
					return v
				}
				check("become", effective(play[i], g, boolKW(func(k *Keywords) Bool { return k.Become })), w.Become)
				check("become_user", effective(play[i], g, func(k *Keywords) (any, bool) { return k.BecomeUser, k.BecomeUser != "" }), w.BecomeUser)
				check("ignore_errors", effective(play[i], g, boolKW(func(k *Keywords) Bool { return k.IgnoreErrors })), w.IgnoreErrors)
				check("no_log", orFalse(effective(play[i], g, boolKW(func(k *Keywords) Bool { return k.NoLog }))), w.NoLog)
				check("run_once", effective(play[i], g, boolKW(func(k *Keywords) Bool { return k.RunOnce })), w.RunOnce)
				check("check_mode", orFalse(effective(play[i], g, boolKW(func(k *Keywords) Bool { return k.CheckMode }))), w.CheckMode)
				var env []any
				if play[i].Environment != nil {
					env = append(env, play[i].Environment)
				}
				for _, l := range g.Levels() {
					if !l.VarsOnly && l.Environment != nil {
						env = append(env, l.Environment)
					}
				}
				check("environment", env, w.Environment)
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
				pb, err = LoadTasks(path, "all", Options{Modules: testModules})
			} else {
				pb, err = Load(path, Options{Modules: testModules})
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
