package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"al.essio.dev/pkg/shellescape"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
)

// stampModule is a module written outside tender's own families, for
// TestAddModuleRecipe: it writes text to a file on the host unless the
// file holds it already, in one round trip.
type stampModule struct{}

var stampSpec = &tasks.Spec{Module: "stamp", Params: []tasks.Param{
	{Name: "path", Kind: tasks.Path, Required: true},
	{Name: "text", Required: true},
}}

func (stampModule) Spec() *tasks.Spec { return stampSpec }

func (stampModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := stampSpec.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	p, text := shellescape.Quote(a.Str("path")), shellescape.Quote(a.Str("text"))
	write := "printf %s " + text + " > " + p + " && "
	if env.Check {
		write = ""
	}
	script := fmt.Sprintf(`if [ "$(cat %s 2>/dev/null)" = %s ]; then echo same; else %secho wrote; fi`, p, text, write)
	out, err := env.Conn.Run(ctx, transport.Cmd{Script: script})
	if err != nil {
		return tasks.Result{}, err
	}
	if out.ExitCode != 0 {
		return tasks.Result{Failed: true, Msg: strings.TrimSpace(string(out.Stderr)), RC: out.ExitCode}, nil
	}
	changed := strings.TrimSpace(string(out.Stdout)) == "wrote"
	return tasks.Result{Changed: changed, Data: map[string]any{"path": a.Str("path")}}, nil
}

// TestAddModuleRecipe proves the recipe of docs/ARCHITECTURE.md: a
// module is its own code plus one registration line. Registered here,
// outside tender's packages, "stamp" runs in a playbook (also under its
// collection name and under async, which runs it on the controller
// beside the play), is idempotent, runs ad hoc and is documented by
// tender doc, with nothing else told of it.
func TestAddModuleRecipe(t *testing.T) {
	saved := moduleRegistry
	t.Cleanup(func() { moduleRegistry = saved })
	moduleRegistry = func() *tasks.Registry {
		r := builtin.Registry()
		r.Add(tasks.Def{Aliases: []string{"example.test.stamp"}, New: func() tasks.Module { return stampModule{} }})
		return r
	}
	dir := t.TempDir()
	inv := filepath.Join(dir, "hosts")
	pb := filepath.Join(dir, "pb.yml")
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(inv, "localhost ansible_connection=local\n")
	write(pb, `- hosts: all
  gather_facts: false
  tasks:
    - stamp: path=`+dir+`/a text=one
      register: r
    - example.test.stamp:
        path: `+dir+`/b
        text: two
      async: 30
      poll: 1
      register: b
    - assert:
        that: r.path == "`+dir+`/a" and b.ansible_job_id is defined and b.finished == 1
`)
	for run, want := range []string{"changed=2", "changed=0"} {
		code, out, errOut := runCLI(t, "play", "-i", inv, "--no-progress", pb)
		if code != 0 || !strings.Contains(out, "localhost                  : ok=3    "+want) {
			t.Fatalf("run %d: exit %d, want %s:\n%s%s", run+1, code, want, out, errOut)
		}
	}
	for f, want := range map[string]string{"a": "one", "b": "two"} {
		if b, err := os.ReadFile(filepath.Join(dir, f)); err != nil || string(b) != want {
			t.Errorf("%s holds %q (%v), want %q", f, b, err, want)
		}
	}

	code, out, errOut := runCLI(t, "run", "-i", inv, "localhost", "-m", "stamp", "-a", "path="+dir+"/c text=three")
	if code != 0 || !strings.HasPrefix(out, "localhost | CHANGED => {") {
		t.Fatalf("ad hoc: exit %d:\n%s%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "c")); string(b) != "three" {
		t.Errorf("ad hoc: c holds %q", b)
	}

	code, out, _ = runCLI(t, "doc", "stamp")
	if code != 0 || !strings.Contains(out, "path") || !strings.Contains(out, "text") {
		t.Errorf("doc stamp: exit %d:\n%s", code, out)
	}
	if _, out, _ = runCLI(t, "doc", "-l"); !strings.Contains(out, "stamp") {
		t.Errorf("doc -l does not list stamp:\n%s", out)
	}
}
