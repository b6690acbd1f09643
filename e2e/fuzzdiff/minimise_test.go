package main

import (
	"strings"
	"testing"
)

// TestMinimise: a synthetic divergence (any case holding a shell task
// whose command says "boom") shrinks to that one task, out of its block,
// with its keywords gone.
func TestMinimise(t *testing.T) {
	c := Generate(7, testSpecs(t))
	c.Tasks = append(c.Tasks, &Task{IsBlock: true, Block: []*Task{
		{Fields: M{{"name", "x"}, {"debug", M{{"msg", "a"}}}}},
		{Fields: M{{"name", "y"}, {"shell", "echo boom"}, {"when", "true"}, {"register", "r"}}},
	}, Rescue: []*Task{{Fields: M{{"debug", "msg=b"}}}}})
	diverges := func(c *Case) bool { return strings.Contains(c.Playbook(), "echo boom") }
	small := Minimise(c, diverges, 1000)
	if !diverges(small) {
		t.Fatalf("the minimal case lost the divergence:\n%s", small.Text())
	}
	if len(small.Tasks) != 1 || small.Tasks[0].IsBlock || len(small.Tasks[0].Fields) != 1 || len(small.Vars) != 0 || len(small.Hosts) != 1 {
		t.Fatalf("not minimal:\n%s", small.Text())
	}
	if !strings.Contains(c.Playbook(), "echo boom") || len(c.Tasks) < 2 {
		t.Fatal("minimising changed the original case")
	}
}

// TestClass: the kind of a divergence leaves out task numbers, names and
// hosts, so the same divergence in another case is the same kind.
func TestClass(t *testing.T) {
	for _, c := range [][2]string{
		{`task 3 "task 4" h2.results[0].rc: ansible 1, tender 0`, "task.results[0].rc"},
		{`task 0 "include_tasks" h1: ansible only`, "task"},
		{`task 2: ansible ran "a", tender "b"`, "task: other task"},
		{"state: ansible only: f1 file", "state"},
		{"exit: ansible 2, tender 0", "exit: ansible 2, tender 0"},
		{`task 1 "t" h1.msg: ansible "Path '/x/f1' is a directory (2)", tender "regexp is required"`, `task.msg [Path _ is a directory _ | regexp is required]`},
		{`task 4 "u" h2.msg: ansible "Path '/y/f9' is a directory (7)", tender absent`, `task.msg [Path _ is a directory _ | absent]`},
		{`task 4 "u" h2.msg: ansible "a: b\n\nThe error appears to be in 'x': line 3", tender "c\n\nThe error appears to be in 'x': line 3"`, `task.msg [a: b | c]`},
	} {
		if got := Class([]string{c[0]}); got != c[1] {
			t.Errorf("Class(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}
