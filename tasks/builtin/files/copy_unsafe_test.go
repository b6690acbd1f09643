package files

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestCopyUnsafeWritesImmutableDir: a file in a directory that takes no
// new file (chattr +i) cannot be replaced atomically; copy (and
// lineinfile, which writes the same way) fails, unless
// unsafe_writes (given, or ANSIBLE_UNSAFE_WRITES in the environment when
// not given) lets it write the file in place. Not parallel: it sets the
// process's environment.
func TestCopyUnsafeWritesImmutableDir(t *testing.T) {
	dir := t.TempDir()
	canChattr(t, dir)
	sub := filepath.Join(dir, "locked")
	os.Mkdir(sub, 0o755)
	dest := filepath.Join(sub, "f")
	os.WriteFile(dest, []byte("old\n"), 0o644)
	if err := exec.Command("chattr", "+i", sub).Run(); err != nil {
		t.Skipf("chattr +i: %v", err)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", sub).Run() })
	env, _ := modtest.TestEnv(t, dir, nil)

	res := modtest.RunMod(t, env, "copy", tasks.Args{"content": "new\n", "dest": dest})
	if !res.Failed || modtest.ReadFile(t, dest) != "old\n" {
		t.Fatalf("without unsafe_writes: %+v", res)
	}
	res = modtest.RunMod(t, env, "copy", tasks.Args{"content": "new\n", "dest": dest, "unsafe_writes": true})
	if res.Failed || !res.Changed || modtest.ReadFile(t, dest) != "new\n" {
		t.Fatalf("unsafe_writes: %+v", res)
	}
	t.Setenv("ANSIBLE_UNSAFE_WRITES", "True")
	res = modtest.RunMod(t, env, "copy", tasks.Args{"content": "env\n", "dest": dest})
	if res.Failed || !res.Changed || modtest.ReadFile(t, dest) != "env\n" {
		t.Fatalf("ANSIBLE_UNSAFE_WRITES=True: %+v", res)
	}
	res = modtest.RunMod(t, env, "copy", tasks.Args{"content": "given\n", "dest": dest, "unsafe_writes": false})
	if !res.Failed || modtest.ReadFile(t, dest) != "env\n" {
		t.Fatalf("unsafe_writes: false wins over the environment: %+v", res)
	}
	// The text-editing modules write through the same script.
	res = modtest.RunMod(t, env, "lineinfile", tasks.Args{"path": dest, "line": "more"})
	if res.Failed || !res.Changed || modtest.ReadFile(t, dest) != "env\nmore\n" {
		t.Fatalf("lineinfile with ANSIBLE_UNSAFE_WRITES=True: %+v", res)
	}
	res = modtest.RunMod(t, env, "lineinfile", tasks.Args{"path": dest, "line": "again", "unsafe_writes": "no"})
	if !res.Failed {
		t.Fatalf("lineinfile with unsafe_writes: no: %+v", res)
	}
}
