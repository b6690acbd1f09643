package files

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// A tree holding symlinks (absolute, relative, to nothing, to a
// directory, back up the tree) copies them as symlinks with
// local_follow=False; with local_follow (the default) a link to a file or
// directory copies what it points at, and a link to nothing or back up
// the tree stays a link (the recursive-copy tests of the copy target).
func TestCopyTreeSymlinks(t *testing.T) {
	t.Parallel()
	dir, files := t.TempDir(), t.TempDir()
	sub := filepath.Join(files, "subdir", "subdir1")
	os.MkdirAll(sub, 0o755)
	os.MkdirAll(filepath.Join(files, "subdir", "subdir2"), 0o755)
	os.WriteFile(filepath.Join(files, "subdir", "bar.txt"), []byte("bar\n"), 0o644)
	os.WriteFile(filepath.Join(files, "subdir", "subdir2", "baz.txt"), []byte("baz\n"), 0o644)
	abs := filepath.Join(files, "abs-target")
	os.WriteFile(abs, []byte("abs\n"), 0o644)
	links := map[string]string{"abs-link": abs, "bar.txt": "../bar.txt", "invalid2": "../invalid",
		"circles": "../", "subdir2": "../subdir2"}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(sub, name)); err != nil {
			t.Fatal(err)
		}
	}
	env, _ := modtest.TestEnv(t, files, nil)
	out := filepath.Join(dir, "nofollow")
	res := modtest.RunMod(t, env, "copy", tasks.Args{"src": "subdir", "dest": out, "directory_mode": "0700", "local_follow": false})
	if res.Failed || !res.Changed {
		t.Fatalf("%+v", res)
	}
	for name, target := range links {
		if got, err := os.Readlink(filepath.Join(out, "subdir", "subdir1", name)); err != nil || got != target {
			t.Fatalf("%s -> %q (%v), want %q", name, got, err, target)
		}
	}
	if res = modtest.RunMod(t, env, "copy", tasks.Args{"src": "subdir", "dest": out, "directory_mode": "0700", "local_follow": false}); res.Failed || res.Changed {
		t.Fatalf("again: %+v", res)
	}
	out = filepath.Join(dir, "follow")
	if res = modtest.RunMod(t, env, "copy", tasks.Args{"src": "subdir", "dest": out}); res.Failed || !res.Changed {
		t.Fatalf("%+v", res)
	}
	s1 := filepath.Join(out, "subdir", "subdir1")
	for name, want := range map[string]string{"abs-link": "abs\n", "bar.txt": "bar\n", "subdir2/baz.txt": "baz\n"} {
		if fi, err := os.Lstat(filepath.Join(s1, name)); err != nil || !fi.Mode().IsRegular() || modtest.ReadFile(t, filepath.Join(s1, name)) != want {
			t.Fatalf("%s: %v %v", name, fi, err)
		}
	}
	for name, target := range map[string]string{"invalid2": "../invalid", "circles": "../"} {
		if got, _ := os.Readlink(filepath.Join(s1, name)); got != target {
			t.Fatalf("%s -> %q", name, got)
		}
	}
}

// remote_src with a directory keeps links as links, unless local_follow
// is given true: then a link to a file lands as a copy of that file (the
// "recursive copying on remote host" tests of the copy target).
func TestCopyRemoteTreeLocalFollow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	os.MkdirAll(dir+"/src/subdir", 0o755)
	os.WriteFile(dir+"/src/subdir/file12", []byte("hello world 12"), 0o644)
	os.Symlink(dir+"/src/subdir/file12", dir+"/src/link_file12")
	for _, c := range []struct {
		dest   string
		follow any
		link   bool
	}{{"/kept", nil, true}, {"/nofollow", false, true}, {"/follow", true, false}} {
		args := tasks.Args{"src": dir + "/src/", "dest": dir + c.dest, "remote_src": true}
		if c.follow != nil {
			args["local_follow"] = c.follow
		}
		if res := modtest.RunMod(t, env, "copy", args); res.Failed || !res.Changed {
			t.Fatalf("%s: %+v", c.dest, res)
		}
		fi, err := os.Lstat(dir + c.dest + "/link_file12")
		if err != nil || (fi.Mode()&os.ModeSymlink != 0) != c.link || modtest.ReadFile(t, dir+c.dest+"/link_file12") != "hello world 12" {
			t.Fatalf("%s: %v %v", c.dest, fi, err)
		}
	}
}

// mode=preserve on a directory copy keeps each file's own mode, from the
// controller or (remote_src) the host (issue 69783 tests of the copy
// target).
func TestCopyTreeModePreserve(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	os.MkdirAll(dir+"/src/dir", 0o755)
	os.Mkdir(dir+"/dest", 0o755)
	for name, m := range map[string]os.FileMode{"readwrite": 0o644, "executable": 0o755, "dir/readonly": 0o444} {
		os.WriteFile(dir+"/src/"+name, nil, 0o600)
		os.Chmod(dir+"/src/"+name, m)
	}
	for _, remote := range []bool{true, false} {
		out := dir + "/dest/" + map[bool]string{true: "r", false: "l"}[remote] + "/"
		res := modtest.RunMod(t, env, "copy", tasks.Args{"src": dir + "/src/", "dest": out, "remote_src": remote, "mode": "preserve"})
		if res.Failed {
			t.Fatalf("remote %v: %+v", remote, res)
		}
		if mode(t, out+"executable") != 0o755 || mode(t, out+"readwrite") != 0o644 || mode(t, out+"dir/readonly") != 0o444 {
			t.Fatalf("remote %v: modes %o %o %o", remote, mode(t, out+"executable"), mode(t, out+"readwrite"), mode(t, out+"dir/readonly"))
		}
	}
}

// A vault-encrypted file (alone or in a tree) is refused with decrypt on,
// with Ansible's message for a missing vault password, and copied as it
// is with decrypt off.
func TestCopyVaultFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	os.Mkdir(dir+"/vault", 0o755)
	enc := dir + "/vault/vault-file"
	os.WriteFile(enc, []byte("$ANSIBLE_VAULT;1.1;AES256\n3132\n"), 0o644)
	want := "A vault password or secret must be specified to decrypt " + enc
	for _, src := range []string{enc, dir + "/vault"} {
		if res := modtest.RunMod(t, env, "copy", tasks.Args{"src": src, "dest": dir + "/out"}); !res.Failed || res.Msg != want || modtest.Exists(dir+"/out") {
			t.Fatalf("%s: %+v", src, res)
		}
	}
	if res := modtest.RunMod(t, env, "copy", tasks.Args{"src": enc, "dest": dir + "/out", "decrypt": false}); res.Failed || !modtest.Exists(dir+"/out") {
		t.Fatalf("decrypt=false: %+v", res)
	}
}

// A tree is listed as os.walk lists it: a level's files before what its
// subdirectories hold (so the first encrypted file named is the top one).
func TestWalkCopyTreeOrder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.MkdirAll(dir+"/a", 0o755)
	os.WriteFile(dir+"/a/x", nil, 0o644)
	os.WriteFile(dir+"/b", nil, 0o644)
	w, err := walkCopyTree(dir, true, nil)
	if err != nil || len(w.files) != 2 || w.files[0].rel != "b" || w.files[1].rel != "a/x" {
		t.Fatalf("%+v %v", w, err)
	}
}

// remote_src with relative src and dest (the login directory's) copies a
// directory's contents (the check_mode tests of the copy target).
func TestCopyRemoteTreeRelative(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(dir+"/checkmode_subdir", 0o755)
	os.WriteFile(dir+"/checkmode_subdir/f", []byte("x"), 0o644)
	os.Symlink("../", dir+"/checkmode_subdir/circles")
	os.Symlink("invalid", dir+"/checkmode_subdir/invalid")
	t.Chdir(dir)
	env, _ := modtest.TestEnv(t, dir, nil)
	res := modtest.RunMod(t, env, "copy", tasks.Args{"src": "checkmode_subdir/", "dest": "destdir/", "remote_src": true, "follow": true})
	if res.Failed || !res.Changed || modtest.ReadFile(t, dir+"/destdir/f") != "x" {
		t.Fatalf("%+v", res)
	}
	env.Check = true
	if res = modtest.RunMod(t, env, "copy", tasks.Args{"src": "checkmode_subdir/", "dest": "destdir/", "remote_src": true}); res.Failed || res.Changed {
		t.Fatalf("again in check mode: %+v", res)
	}
}

// remote_src naming a device is refused, with the message ansible-core
// 2.14 gave for src=/dev/null (observed).
func TestCopyRemoteSrcNotAFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	res := modtest.RunMod(t, env, "copy", tasks.Args{"src": "/dev/null", "dest": dir + "/d", "remote_src": true})
	if !res.Failed || res.Msg != "Cannot copy invalid source '/dev/null': not a file" || modtest.Exists(dir+"/d") {
		t.Fatalf("%+v", res)
	}
}
