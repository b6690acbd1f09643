package files

import (
	"fmt"
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
	if sum, _ := shared.FileSHA1(nil, src); res.Changed || cc.Runs != 1 || res.Data["checksum"] != sum {
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

// TestFetchHostNameStaysInDest: a host whose name is not one path
// component ("../../x" added from host data, ".", "a/../b") cannot make
// fetch write outside dest or into another host's directory; a src whose
// ".." parts lead out of dest/HOST is refused too, while one that stays
// inside is fetched; a flat dest/ needs a src with a file name. Nothing
// is written for a refusal.
func TestFetchHostNameStaysInDest(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	src := filepath.Join(dir, "host", "f")
	os.MkdirAll(filepath.Dir(src), 0o755)
	os.WriteFile(src, []byte("data\n"), 0o600)
	dest := filepath.Join(dir, "out", "fetched")
	for _, host := range []string{"../../x", "..", ".", "", "web1/../web2", "a/b"} {
		env.Host = host
		res := modtest.RunMod(t, env, "fetch", tasks.Args{"src": src, "dest": dest + "/"})
		if !res.Failed || !strings.Contains(res.Msg, fmt.Sprintf("the host name %q", host)) ||
			!strings.Contains(res.Msg, filepath.Join(dest, host, src)) {
			t.Errorf("host %q: %+v, want a refusal naming the host and the path", host, res)
		}
	}
	if err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && p != src {
			t.Errorf("a refused fetch wrote %s", p)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	env.Host = "web1"
	res := modtest.RunMod(t, env, "fetch", tasks.Args{"src": "/../../" + src, "dest": dest})
	if !res.Failed || !strings.Contains(res.Msg, "Detected directory traversal") {
		t.Errorf("src escaping dest/HOST: %+v", res)
	}
	inside := filepath.Join(filepath.Dir(src), "..", "host", "f")
	res = modtest.RunMod(t, env, "fetch", tasks.Args{"src": inside, "dest": dest})
	if want := filepath.Join(dest, "web1", src); res.Failed || res.Data["dest"] != want {
		t.Errorf("src with .. inside dest/HOST: %+v, want %s", res, want)
	}
	for _, s := range []string{"..", "/"} {
		res = modtest.RunMod(t, env, "fetch", tasks.Args{"src": s, "dest": dest + "/", "flat": true})
		if !res.Failed || !strings.Contains(res.Msg, "names no file to store") {
			t.Errorf("flat src %q: %+v", s, res)
		}
	}
}

// TestFetchBecomeReadsLikeSlurp: without become, Ansible's fetch stats the
// file first and fails with stat's error; under become it goes straight
// to slurp, whose error it reports (here ENOTDIR, a file taken for a
// directory), or ignores without fail_on_missing.
func TestFetchBecomeReadsLikeSlurp(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644)
	src := filepath.Join(dir, "f", "x")
	args := tasks.Args{"src": src, "dest": filepath.Join(dir, "got")}
	res := modtest.RunMod(t, env, "fetch", args)
	if want := "Failed to get information on remote file (" + src + "): Not a directory"; !res.Failed || res.Msg != want || res.Data["file"] != src {
		t.Errorf("without become: %+v", res)
	}
	env.Become = true
	res = modtest.RunMod(t, env, "fetch", args)
	if want := "unable to slurp file: [Errno 20] Not a directory: '" + src + "'"; !res.Failed || res.Msg != want {
		t.Errorf("with become: %+v", res)
	}
	args["fail_on_missing"] = false
	res = modtest.RunMod(t, env, "fetch", args)
	if res.Failed || res.Msg != "" || res.Data["file"] != src {
		t.Errorf("with become, fail_on_missing=false: %+v", res)
	}
}
