package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

func TestFetch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cc := modtest.TestEnv(t, dir, nil)
	src := filepath.Join(dir, "host", "f")
	os.MkdirAll(filepath.Dir(src), 0o755)
	os.WriteFile(src, []byte("data\n"), 0o600)
	args := tasks.Args{"src": src, "dest": filepath.Join(dir, "got")}
	res := modtest.RunMod(t, env, "fetch", args)
	want := filepath.Join(dir, "got", "localhost", src)
	if !res.Changed || res.Data["dest"] != want || modtest.ReadFile(t, want) != "data\n" {
		t.Fatalf("first: %+v", res)
	}
	cc.Runs = 0
	res = modtest.RunMod(t, env, "fetch", args)
	if sum, _ := shared.FileSHA1(src); res.Changed || cc.Runs != 1 || res.Data["checksum"] != sum {
		t.Fatalf("again: %+v runs=%d", res, cc.Runs)
	}
	// A large file comes with Get; the local copy is replaced whole.
	big := make([]byte, shared.InlineMax+10)
	for i := range big {
		big[i] = byte('a' + i%26)
	}
	os.WriteFile(src, big, 0o600)
	res = modtest.RunMod(t, env, "fetch", tasks.Args{"src": src, "dest": filepath.Join(dir, "flat") + "/", "flat": true})
	if !res.Changed || modtest.ReadFile(t, filepath.Join(dir, "flat", "f")) != string(big) {
		t.Fatalf("big: %+v", res)
	}
	res = modtest.RunMod(t, env, "fetch", tasks.Args{"src": "../../../x", "dest": filepath.Join(dir, "got")})
	if !res.Failed || !strings.Contains(res.Msg, "Detected directory traversal") {
		t.Fatalf("traversal: %+v", res)
	}
	env.Check = true
	if res = modtest.RunMod(t, env, "fetch", args); !res.Skipped {
		t.Fatalf("check: %+v", res)
	}
}
