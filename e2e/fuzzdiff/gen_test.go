package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/tasks/builtin"
)

func testSpecs(t *testing.T) Specs {
	t.Helper()
	s, err := LoadSpecs("../../tasks/builtin/testdata/specs/specs.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGenerateDeterministic: a seed always gives the same case, and two
// seeds different ones.
func TestGenerateDeterministic(t *testing.T) {
	s := testSpecs(t)
	for seed := int64(1); seed <= 20; seed++ {
		if a, b := Generate(seed, s).Text(), Generate(seed, s).Text(); a != b {
			t.Fatalf("seed %d gives two cases:\n%s\n----\n%s", seed, a, b)
		}
	}
	if Generate(1, s).Text() == Generate(2, s).Text() {
		t.Fatal("seeds 1 and 2 give the same case")
	}
}

// TestGenerateLoads: tender's loader accepts every case generated (a
// case the loader refused would test the loader only), and the cases use
// what the generator is meant to exercise.
func TestGenerateLoads(t *testing.T) {
	s := testSpecs(t)
	seen := map[string]bool{}
	for seed := int64(1); seed <= 200; seed++ {
		c := Generate(seed, s)
		dir := t.TempDir()
		for name, text := range c.Render() {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := playbooks.Load(filepath.Join(dir, "site.yml"), playbooks.Options{Modules: builtin.Registry()}); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, c.Text())
		}
		walk(c.Tasks, func(tk *Task) {
			if tk.IsBlock {
				seen["block"] = true
				if tk.Rescue != nil {
					seen["rescue"] = true
				}
			}
			for _, kv := range tk.Fields {
				seen[kv.K] = true
			}
		})
	}
	for _, k := range []string{"block", "rescue", "include_tasks", "import_tasks", "loop", "with_items", "with_dict",
		"loop_control", "when", "register", "changed_when", "failed_when", "ignore_errors", "run_once", "tags",
		"notify", "set_fact", "debug", "assert", "fail", "command", "shell", "copy", "file", "lineinfile", "stat", "meta"} {
		if !seen[k] {
			t.Errorf("no case of seeds 1-200 uses %s", k)
		}
	}
}

func walk(ts []*Task, fn func(*Task)) {
	for _, t := range ts {
		fn(t)
		walk(t.Block, fn)
		walk(t.Rescue, fn)
		walk(t.Always, fn)
	}
}

// TestGenerateRolesLoads: with the roles and vars options, tender's
// loader accepts every case (roles, their files and dependencies, the
// variable files included), and the cases use roles and variable layers
// in each way the options draw.
func TestGenerateRolesLoads(t *testing.T) {
	s := testSpecs(t)
	seen := map[string]bool{}
	for seed := int64(1); seed <= 150; seed++ {
		c := GenerateWith(seed, s, Options{Roles: true, Vars: true})
		dir := t.TempDir()
		for name, text := range c.Render() {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			seen[filepath.Base(filepath.Dir(name))] = true
		}
		if _, err := playbooks.Load(filepath.Join(dir, "site.yml"), playbooks.Options{Modules: builtin.Registry()}); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, c.Text())
		}
		if len(c.PlayRoles) > 0 {
			seen["play roles"] = true
		}
		if len(c.VarsFiles) > 0 {
			seen["vars_files"] = true
		}
		if len(c.GroupVars) > 0 {
			seen["group vars"] = true
		}
		all := append([]*Task(nil), c.Tasks...)
		for _, f := range c.Files {
			all = append(all, f.Tasks...)
		}
		for _, r := range c.Roles {
			all = append(all, r.Tasks...)
		}
		walk(all, func(tk *Task) {
			for _, kv := range tk.Fields {
				seen[kv.K] = true
			}
		})
	}
	for _, k := range []string{"play roles", "include_role", "import_role", "template", "defaults", "vars", "handlers", "meta", "templates",
		"vars_files", "group vars", "group_vars", "host_vars"} {
		if !seen[k] {
			t.Errorf("no case of seeds 1-150 uses %s", k)
		}
	}
}
