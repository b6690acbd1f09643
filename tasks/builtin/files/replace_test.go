package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

func TestReplace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cc := modtest.TestEnv(t, dir, nil)
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("a=1\nb=1\n"), 0o644)
	args := tasks.Args{"path": p, "regexp": `^(\w)=1$`, "replace": `\1=2`}
	env.Check, env.Diff = true, true
	res := modtest.RunMod(t, env, "replace", args)
	if !res.Changed || res.Msg != "2 replacements made" || modtest.ReadFile(t, p) != "a=1\nb=1\n" || !strings.Contains(res.Diff, "+a=2\n+b=2\n") {
		t.Fatalf("check: %+v", res)
	}
	env.Check = false
	cc.Runs = 0
	res = modtest.RunMod(t, env, "replace", args)
	if !res.Changed || modtest.ReadFile(t, p) != "a=2\nb=2\n" || cc.Runs != 2 {
		t.Fatalf("apply: %+v runs=%d", res, cc.Runs)
	}
	cc.Runs = 0
	res = modtest.RunMod(t, env, "replace", args)
	if res.Changed || cc.Runs != 1 {
		t.Fatalf("again: %+v runs=%d", res, cc.Runs)
	}
	// Python's re: lookbehind and a backreference
	res = modtest.RunMod(t, env, "replace", tasks.Args{"path": p, "regexp": `(?<=a=)(\d)`, "replace": `\1\1`})
	if !res.Changed || modtest.ReadFile(t, p) != "a=22\nb=2\n" {
		t.Fatalf("lookbehind: %+v %q", res, modtest.ReadFile(t, p))
	}
	res = modtest.RunMod(t, env, "replace", tasks.Args{"path": p, "regexp": `(\d)\1$`})
	if !res.Changed || modtest.ReadFile(t, p) != "a=\nb=2\n" {
		t.Fatalf("backreference: %+v %q", res, modtest.ReadFile(t, p))
	}
	os.WriteFile(p, []byte("a=2\nb=2\n"), 0o644)
	res = modtest.RunMod(t, env, "replace", tasks.Args{"path": p, "regexp": `a(?<=a+)`})
	if !res.Failed || !strings.Contains(res.Msg, "look-behind requires fixed-width pattern") {
		t.Fatalf("a lookbehind Python refuses: %+v", res)
	}
	// latin-1 text is edited as text and written back as latin-1.
	os.WriteFile(p, []byte("caf\xe9\n"), 0o644)
	res = modtest.RunMod(t, env, "replace", tasks.Args{"path": p, "regexp": "é", "replace": "e", "encoding": "latin-1"})
	if !res.Changed || modtest.ReadFile(t, p) != "cafe\n" {
		t.Fatalf("latin-1: %+v %q", res, modtest.ReadFile(t, p))
	}
}

func TestBlockinfile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cc := modtest.TestEnv(t, dir, nil)
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("a\n# BEGIN ANSIBLE MANAGED BLOCK\nold\n# END ANSIBLE MANAGED BLOCK\nz\n"), 0o644)
	env.Diff = true
	res := modtest.RunMod(t, env, "blockinfile", tasks.Args{"path": p, "block": "new"})
	want := "a\n# BEGIN ANSIBLE MANAGED BLOCK\nnew\n# END ANSIBLE MANAGED BLOCK\nz\n"
	if !res.Changed || res.Msg != "Block inserted" || modtest.ReadFile(t, p) != want || !strings.Contains(res.Diff, "-old\n+new\n") {
		t.Fatalf("update: %+v %q", res, modtest.ReadFile(t, p))
	}
	cc.Runs = 0
	res = modtest.RunMod(t, env, "blockinfile", tasks.Args{"path": p, "block": "new"})
	if res.Changed || cc.Runs != 1 {
		t.Fatalf("again: %+v runs=%d", res, cc.Runs)
	}
	res = modtest.RunMod(t, env, "blockinfile", tasks.Args{"path": p, "state": "absent"})
	if !res.Changed || res.Msg != "Block removed" || modtest.ReadFile(t, p) != "a\nz\n" {
		t.Fatalf("remove: %+v %q", res, modtest.ReadFile(t, p))
	}
}
