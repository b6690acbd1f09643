package builtin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
)

func TestReplace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cc := testEnv(t, dir, nil)
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("a=1\nb=1\n"), 0o644)
	args := tasks.Args{"path": p, "regexp": `^(\w)=1$`, "replace": `\1=2`}
	env.Check, env.Diff = true, true
	res := runMod(t, env, "replace", args)
	if !res.Changed || res.Msg != "2 replacements made" || readFile(t, p) != "a=1\nb=1\n" || !strings.Contains(res.Diff, "+a=2\n+b=2\n") {
		t.Fatalf("check: %+v", res)
	}
	env.Check = false
	cc.runs = 0
	res = runMod(t, env, "replace", args)
	if !res.Changed || readFile(t, p) != "a=2\nb=2\n" || cc.runs != 2 {
		t.Fatalf("apply: %+v runs=%d", res, cc.runs)
	}
	cc.runs = 0
	res = runMod(t, env, "replace", args)
	if res.Changed || cc.runs != 1 {
		t.Fatalf("again: %+v runs=%d", res, cc.runs)
	}
	res = runMod(t, env, "replace", tasks.Args{"path": p, "regexp": `a(?<=a)`})
	if !res.Failed || !strings.Contains(res.Msg, "lookbehind") {
		t.Fatalf("lookbehind: %+v", res)
	}
	// latin-1 text is edited as text and written back as latin-1.
	os.WriteFile(p, []byte("caf\xe9\n"), 0o644)
	res = runMod(t, env, "replace", tasks.Args{"path": p, "regexp": "é", "replace": "e", "encoding": "latin-1"})
	if !res.Changed || readFile(t, p) != "cafe\n" {
		t.Fatalf("latin-1: %+v %q", res, readFile(t, p))
	}
}

func TestBlockinfile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cc := testEnv(t, dir, nil)
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("a\n# BEGIN ANSIBLE MANAGED BLOCK\nold\n# END ANSIBLE MANAGED BLOCK\nz\n"), 0o644)
	env.Diff = true
	res := runMod(t, env, "blockinfile", tasks.Args{"path": p, "block": "new"})
	want := "a\n# BEGIN ANSIBLE MANAGED BLOCK\nnew\n# END ANSIBLE MANAGED BLOCK\nz\n"
	if !res.Changed || res.Msg != "Block inserted" || readFile(t, p) != want || !strings.Contains(res.Diff, "-old\n+new\n") {
		t.Fatalf("update: %+v %q", res, readFile(t, p))
	}
	cc.runs = 0
	res = runMod(t, env, "blockinfile", tasks.Args{"path": p, "block": "new"})
	if res.Changed || cc.runs != 1 {
		t.Fatalf("again: %+v runs=%d", res, cc.runs)
	}
	res = runMod(t, env, "blockinfile", tasks.Args{"path": p, "state": "absent"})
	if !res.Changed || res.Msg != "Block removed" || readFile(t, p) != "a\nz\n" {
		t.Fatalf("remove: %+v %q", res, readFile(t, p))
	}
}
