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

func mode(t *testing.T, p string) os.FileMode {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func TestCopyContent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cc := modtest.TestEnv(t, dir, nil)
	dest := filepath.Join(dir, "a; rm -rf x 'b'.txt")
	args := tasks.Args{"content": "hello\n", "dest": dest, "mode": "0640"}

	env.Check = true
	res := modtest.RunMod(t, env, "copy", args)
	if !res.Changed || modtest.Exists(dest) {
		t.Fatalf("check: %+v", res)
	}
	env.Check = false
	res = modtest.RunMod(t, env, "copy", args)
	if !res.Changed || modtest.ReadFile(t, dest) != "hello\n" || mode(t, dest) != 0o640 {
		t.Fatalf("first: %+v", res)
	}
	if res.Data["checksum"] != "f572d396fae9206628714fb2ce00f72e94f2258f" || res.Data["md5sum"] != "b1946ac92492d2347c6235b4d2611184" || res.Data["mode"] != "0640" || res.Data["size"] != 6 {
		t.Fatalf("data: %+v", res.Data)
	}
	cc.Runs = 0
	res = modtest.RunMod(t, env, "copy", args)
	if res.Changed || res.Failed || cc.Runs != 1 || res.Data["path"] != dest {
		t.Fatalf("second: %+v runs=%d", res, cc.Runs)
	}
	res = modtest.RunMod(t, env, "copy", tasks.Args{"content": "hello\n", "dest": dest, "mode": "u=rw,g=,o="})
	if !res.Changed || mode(t, dest) != 0o600 {
		t.Fatalf("symbolic: %+v %v", res, mode(t, dest))
	}
	env.Diff = true
	res = modtest.RunMod(t, env, "copy", tasks.Args{"content": "hello\nworld\n", "dest": dest, "backup": true})
	if !res.Changed || mode(t, dest) != 0o600 || !strings.Contains(res.Diff, "+world\n") || !strings.Contains(res.Diff, " hello\n") {
		t.Fatalf("replace: %+v", res)
	}
	if b, _ := res.Data["backup_file"].(string); b == "" || modtest.ReadFile(t, b) != "hello\n" {
		t.Fatalf("backup: %+v", res.Data)
	}
	res = modtest.RunMod(t, env, "copy", tasks.Args{"content": "other", "dest": dest, "force": "no"})
	if res.Changed || modtest.ReadFile(t, dest) != "hello\nworld\n" {
		t.Fatalf("force=no: %+v", res)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".tender-*"))
	if len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}

func TestCopySrcDirDestRemote(t *testing.T) {
	t.Parallel()
	dir, files := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(files, "f.txt"), []byte("from controller\n"), 0o644)
	env, _ := modtest.TestEnv(t, files, nil)
	res := modtest.RunMod(t, env, "copy", tasks.Args{"src": "f.txt", "dest": dir + "/sub/"})
	if !res.Changed || modtest.ReadFile(t, dir+"/sub/f.txt") != "from controller\n" || res.Data["dest"] != dir+"/sub/f.txt" {
		t.Fatalf("%+v", res)
	}
	if res = modtest.RunMod(t, env, "copy", tasks.Args{"src": "f.txt", "dest": dir + "/sub"}); res.Changed {
		t.Fatalf("again: %+v", res)
	}
	res = modtest.RunMod(t, env, "copy", tasks.Args{"src": dir + "/sub/f.txt", "dest": dir + "/r.txt", "remote_src": true})
	if !res.Changed || modtest.ReadFile(t, dir+"/r.txt") != "from controller\n" {
		t.Fatalf("remote: %+v", res)
	}
	if res = modtest.RunMod(t, env, "copy", tasks.Args{"src": dir + "/sub/f.txt", "dest": dir + "/r.txt", "remote_src": true}); res.Changed {
		t.Fatalf("remote again: %+v", res)
	}
	if res = modtest.RunMod(t, env, "copy", tasks.Args{"src": "nope", "dest": dir}); !res.Failed {
		t.Fatalf("missing: %+v", res)
	}
	if res = modtest.RunMod(t, env, "copy", tasks.Args{"content": "x", "dest": dir}); !res.Failed || res.Msg != "can not use content with a dir as dest" {
		t.Fatalf("content to dir: %+v", res)
	}
	if res = modtest.RunMod(t, env, "copy", tasks.Args{"content": "x", "dest": dir + "/new/"}); !res.Failed || modtest.Exists(dir+"/new") {
		t.Fatalf("content to new dir: %+v", res)
	}
	if res = modtest.RunMod(t, env, "copy", tasks.Args{"src": "", "dest": dir}); !res.Failed || res.Msg != "src (or content) is required" {
		t.Fatalf("%+v", res)
	}
	if res = modtest.RunMod(t, env, "copy", tasks.Args{"src": "foo.txt"}); !res.Failed || res.Msg != "dest is required" {
		t.Fatalf("%+v", res)
	}
	if res = modtest.RunMod(t, env, "copy", tasks.Args{"dest": dir}); !res.Failed || res.Msg != "src (or content) is required" {
		t.Fatalf("%+v", res)
	}
}

func TestCopyValidate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	dest := filepath.Join(dir, "v")
	res := modtest.RunMod(t, env, "copy", tasks.Args{"content": "x\n", "dest": dest, "validate": "grep -q y %s"})
	if !res.Failed || res.Msg != "failed to validate" || res.Data["exit_status"] != 1 || modtest.Exists(dest) {
		t.Fatalf("%+v", res)
	}
	res = modtest.RunMod(t, env, "copy", tasks.Args{"content": "y\n", "dest": dest, "validate": "grep -q y %s"})
	if res.Failed || !res.Changed || modtest.ReadFile(t, dest) != "y\n" {
		t.Fatalf("%+v", res)
	}
}

func TestCopyLarge(t *testing.T) {
	t.Parallel()
	dir, files := t.TempDir(), t.TempDir()
	big := strings.Repeat("0123456789abcdef", shared.InlineMax/8)
	os.WriteFile(filepath.Join(files, "big"), []byte(big), 0o644)
	env, cc := modtest.TestEnv(t, files, nil)
	res := modtest.RunMod(t, env, "copy", tasks.Args{"src": "big", "dest": dir + "/big", "mode": "0600", "owner": "root"})
	if !res.Changed || modtest.ReadFile(t, dir+"/big") != big || cc.Runs != 2 || cc.Puts != 1 || mode(t, dir+"/big") != 0o600 {
		t.Fatalf("%+v runs=%d puts=%d", res.Data, cc.Runs, cc.Puts)
	}
	cc.Runs, cc.Puts = 0, 0
	if res = modtest.RunMod(t, env, "copy", tasks.Args{"src": "big", "dest": dir + "/big", "mode": "0600"}); res.Changed || cc.Runs != 1 || cc.Puts != 0 {
		t.Fatalf("again: %+v runs=%d puts=%d", res, cc.Runs, cc.Puts)
	}
	if res = modtest.RunMod(t, env, "copy", tasks.Args{"src": "big", "dest": dir + "/no/big"}); !res.Failed || res.Msg != "Destination directory "+dir+"/no does not exist" {
		t.Fatalf("missing dir: %+v", res)
	}
}

func TestCopyTree(t *testing.T) {
	t.Parallel()
	dir, files := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(files, "tree/sub"), 0o755)
	os.WriteFile(filepath.Join(files, "tree/a"), []byte("a\n"), 0o644)
	os.WriteFile(filepath.Join(files, "tree/sub/b"), []byte("b\n"), 0o644)
	env, cc := modtest.TestEnv(t, files, nil)
	args := tasks.Args{"src": "tree", "dest": dir + "/t", "mode": "0600"}
	env.Check = true
	if res := modtest.RunMod(t, env, "copy", args); !res.Changed || modtest.Exists(dir+"/t") {
		t.Fatalf("check: %+v", res)
	}
	env.Check = false
	res := modtest.RunMod(t, env, "copy", args)
	if !res.Changed || modtest.ReadFile(t, dir+"/t/tree/sub/b") != "b\n" || mode(t, dir+"/t/tree/a") != 0o600 {
		t.Fatalf("%+v", res)
	}
	cc.Runs = 0
	if res = modtest.RunMod(t, env, "copy", args); res.Changed || cc.Runs != 1 {
		t.Fatalf("again: %+v %d", res, cc.Runs)
	}
	res = modtest.RunMod(t, env, "copy", tasks.Args{"src": "tree/", "dest": dir + "/t2"})
	if !res.Changed || modtest.ReadFile(t, dir+"/t2/a") != "a\n" || res.Data["dest"] != dir+"/t2/" {
		t.Fatalf("contents: %+v", res)
	}
}

func TestCopyCheckDiffAndHome(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	dest := filepath.Join(dir, "f")
	os.WriteFile(dest, []byte("a\nb\nc\n"), 0o644)
	env.Check, env.Diff = true, true
	res := modtest.RunMod(t, env, "copy", tasks.Args{"content": "a\nB\nc\n", "dest": dest})
	want := "--- before: " + dest + "\n+++ after: " + dest + "\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
	if !res.Changed || res.Diff != want || modtest.ReadFile(t, dest) != "a\nb\nc\n" {
		t.Fatalf("%q\n%+v", res.Diff, res)
	}
	home, _ := os.UserHomeDir()
	env.Check = true
	res = modtest.RunMod(t, env, "file", tasks.Args{"path": "~/.tender-test-never", "state": "directory"})
	if !res.Changed || res.Data["path"] != filepath.Join(home, ".tender-test-never") || modtest.Exists(filepath.Join(home, ".tender-test-never")) {
		t.Fatalf("%+v", res)
	}
	res = modtest.RunMod(t, env, "stat", tasks.Args{"path": "~"})
	if res.Data["stat"].(map[string]any)["isdir"] != true {
		t.Fatalf("%+v", res)
	}
}

func TestCopyRemoteTree(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cc := modtest.TestEnv(t, dir, nil)
	os.MkdirAll(dir+"/src/sub", 0o755)
	os.WriteFile(dir+"/src/a", []byte("a\n"), 0o640)
	os.WriteFile(dir+"/src/sub/b", []byte("b\n"), 0o644)
	args := tasks.Args{"src": dir + "/src/", "dest": dir + "/dst", "remote_src": true, "owner": "root"}
	twice(t, env, "copy", args, func() bool { return !modtest.Exists(dir + "/dst") })
	if modtest.ReadFile(t, dir+"/dst/sub/b") != "b\n" || mode(t, dir+"/dst/a") != 0o640 {
		t.Fatal("not copied as cp -p would")
	}
	os.WriteFile(dir+"/src/sub/b", []byte("changed\n"), 0o644)
	cc.Runs = 0
	res := modtest.RunMod(t, env, "copy", args)
	if !res.Changed || modtest.ReadFile(t, dir+"/dst/sub/b") != "changed\n" || cc.Runs != 1 {
		t.Fatalf("%+v", res)
	}
	res = modtest.RunMod(t, env, "copy", tasks.Args{"src": dir + "/src", "dest": dir + "/dst2", "remote_src": true})
	if !res.Changed || modtest.ReadFile(t, dir+"/dst2/src/a") != "a\n" || res.Data["dest"] != dir+"/dst2" {
		t.Fatalf("%+v", res)
	}
}

// mode=preserve gives dest the source's mode, from the controller file or
// (remote_src) the host's (the mode=preserve tests of the copy target).
func TestCopyModePreserve(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	src := filepath.Join(dir, "foo.txt")
	os.WriteFile(src, []byte("foo.txt\n"), 0o600)
	os.Chmod(src, 0o547)
	d1, d2 := filepath.Join(dir, "copy-foo.txt"), filepath.Join(dir, "copy-foo2.txt")
	res := modtest.RunMod(t, env, "copy", tasks.Args{"src": src, "dest": d1, "mode": "preserve"})
	if !res.Changed || res.Data["mode"] != "0547" || mode(t, d1) != 0o547 {
		t.Fatalf("%+v", res)
	}
	res = modtest.RunMod(t, env, "copy", tasks.Args{"src": d1, "dest": d2, "mode": "preserve", "remote_src": true})
	if !res.Changed || res.Data["mode"] != "0547" || mode(t, d2) != 0o547 {
		t.Fatalf("remote: %+v", res)
	}
}

// follow=yes writes through a link at dest: the link stays, its target
// gets the content, and a second run changes nothing (the follow tests of
// the copy target).
func TestCopyFollowDestLink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	target, link := filepath.Join(dir, "follow_test"), filepath.Join(dir, "follow_link")
	os.WriteFile(target, []byte("old\n"), 0o644)
	os.Symlink("./follow_test", link)
	args := tasks.Args{"content": "new\n", "dest": link, "follow": true}
	res := modtest.RunMod(t, env, "copy", args)
	if got, _ := os.Readlink(link); !res.Changed || got != "./follow_test" || modtest.ReadFile(t, target) != "new\n" {
		t.Fatalf("link %q: %+v", got, res)
	}
	if res = modtest.RunMod(t, env, "copy", args); res.Changed || res.Failed {
		t.Fatalf("again: %+v", res)
	}
}

// TestCopyNameWithBackslash: a file whose name holds a backslash (which
// md5sum and sha1sum escape in their output) is compared by its
// content: a second copy changes nothing.
func TestCopyNameWithBackslash(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	dest := filepath.Join(dir, `foo t'e~m\plated`)
	args := tasks.Args{"content": "hello\n", "dest": dest}
	if res := modtest.RunMod(t, env, "copy", args); !res.Changed || res.Failed {
		t.Fatalf("first: %+v", res)
	}
	if res := modtest.RunMod(t, env, "copy", args); res.Changed || res.Failed || res.Data["checksum"] != "f572d396fae9206628714fb2ce00f72e94f2258f" {
		t.Fatalf("again: %+v", res)
	}
}
