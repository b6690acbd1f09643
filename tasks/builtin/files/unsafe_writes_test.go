package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestUnsafeWrites: where the final rename fails (a file bind-mounted into
// a container answers EBUSY; here an mv that always fails stands for it),
// unsafe_writes writes the file in place, as Ansible does, and without it
// the task fails and the file is untouched.
func TestUnsafeWrites(t *testing.T) {
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "mv"), []byte("#!/bin/sh\necho 'mv: Device or resource busy' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	env, _ := modtest.TestEnv(t, t.TempDir(), nil)
	dir := t.TempDir()
	for _, tc := range []struct {
		module string
		args   tasks.Args
		want   string
	}{
		{"lineinfile", tasks.Args{"line": "127.0.1.1 box"}, "127.0.0.1 localhost\n127.0.1.1 box\n"},
		{"copy", tasks.Args{"content": "new\n"}, "new\n"},
	} {
		p := filepath.Join(dir, tc.module)
		os.WriteFile(p, []byte("127.0.0.1 localhost\n"), 0o644)
		tc.args["path"], tc.args["dest"] = p, p
		if tc.module == "copy" {
			delete(tc.args, "path")
		} else {
			delete(tc.args, "dest")
		}
		res := modtest.RunMod(t, env, tc.module, tc.args)
		if !res.Failed || !strings.Contains(res.Msg, "could not move") {
			t.Errorf("%s without unsafe_writes: %+v", tc.module, res)
		}
		if got, _ := os.ReadFile(p); string(got) != "127.0.0.1 localhost\n" {
			t.Errorf("%s without unsafe_writes changed the file: %q", tc.module, got)
		}
		tc.args["unsafe_writes"] = true
		res = modtest.RunMod(t, env, tc.module, tc.args)
		if res.Failed || !res.Changed {
			t.Errorf("%s with unsafe_writes: %+v", tc.module, res)
		}
		if got, _ := os.ReadFile(p); string(got) != tc.want {
			t.Errorf("%s with unsafe_writes wrote %q, want %q", tc.module, got, tc.want)
		}
		left, _ := filepath.Glob(filepath.Join(dir, ".tender-*"))
		if len(left) > 0 {
			t.Errorf("%s left %v", tc.module, left)
		}
	}
}
