package builtin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

func TestFetch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cc := testEnv(t, dir, nil)
	src := filepath.Join(dir, "host", "f")
	os.MkdirAll(filepath.Dir(src), 0o755)
	os.WriteFile(src, []byte("data\n"), 0o600)
	args := tasks.Args{"src": src, "dest": filepath.Join(dir, "got")}
	res := runMod(t, env, "fetch", args)
	want := filepath.Join(dir, "got", "localhost", src)
	if !res.Changed || res.Data["dest"] != want || readFile(t, want) != "data\n" {
		t.Fatalf("first: %+v", res)
	}
	cc.runs = 0
	res = runMod(t, env, "fetch", args)
	if sum, _ := shared.FileSHA1(src); res.Changed || cc.runs != 1 || res.Data["checksum"] != sum {
		t.Fatalf("again: %+v runs=%d", res, cc.runs)
	}
	// A large file comes with Get; the local copy is replaced whole.
	big := make([]byte, shared.InlineMax+10)
	for i := range big {
		big[i] = byte('a' + i%26)
	}
	os.WriteFile(src, big, 0o600)
	res = runMod(t, env, "fetch", tasks.Args{"src": src, "dest": filepath.Join(dir, "flat") + "/", "flat": true})
	if !res.Changed || readFile(t, filepath.Join(dir, "flat", "f")) != string(big) {
		t.Fatalf("big: %+v", res)
	}
	res = runMod(t, env, "fetch", tasks.Args{"src": "../../../x", "dest": filepath.Join(dir, "got")})
	if !res.Failed || !strings.Contains(res.Msg, "Detected directory traversal") {
		t.Fatalf("traversal: %+v", res)
	}
	env.Check = true
	if res = runMod(t, env, "fetch", args); !res.Skipped {
		t.Fatalf("check: %+v", res)
	}
}
