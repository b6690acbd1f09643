package files

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// twice runs args in check mode (nothing may change), then for real
// (changed), then again (not changed), and returns the real run's result.
func twice(t *testing.T, env *tasks.Env, name string, args tasks.Args, unchanged func() bool) tasks.Result {
	t.Helper()
	env.Check = true
	res := modtest.RunMod(t, env, name, args)
	env.Check = false
	if !res.Changed || res.Failed || !unchanged() {
		t.Fatalf("check %v: %+v", args, res)
	}
	res = modtest.RunMod(t, env, name, args)
	if !res.Changed || res.Failed {
		t.Fatalf("first %v: %+v", args, res)
	}
	again := modtest.RunMod(t, env, name, args)
	if again.Changed || again.Failed {
		t.Fatalf("second %v: %+v", args, again)
	}
	return res
}

func TestFileStates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cc := modtest.TestEnv(t, dir, nil)
	d := filepath.Join(dir, "x; y", "e")
	res := twice(t, env, "file", tasks.Args{"path": d, "state": "directory", "mode": "0750"}, func() bool { return !modtest.Exists(d) })
	if mode(t, d) != 0o750 || mode(t, filepath.Dir(d)) != 0o750 || res.Data["state"] != "directory" || res.Data["mode"] != "0750" {
		t.Fatalf("%+v", res)
	}
	f := filepath.Join(d, "f")
	res = modtest.RunMod(t, env, "file", tasks.Args{"path": f, "state": "touch", "mode": "u=rw,g=r,o="})
	if !res.Changed || !modtest.Exists(f) || mode(t, f) != 0o640 || res.Data["dest"] != f {
		t.Fatalf("touch %+v", res)
	}
	twice(t, env, "file", tasks.Args{"path": f, "mode": "0600"}, func() bool { return mode(t, f) == 0o640 })
	if mode(t, f) != 0o600 {
		t.Fatal(mode(t, f))
	}
	l := filepath.Join(d, "l")
	res = twice(t, env, "file", tasks.Args{"src": f, "dest": l, "state": "link"}, func() bool { return !modtest.Exists(l) })
	if got, _ := os.Readlink(l); got != f || res.Data["state"] != "link" || res.Data["src"] != f {
		t.Fatalf("link %q %+v", got, res)
	}
	// A link to a directory is replaced, not entered, when it is pointed
	// elsewhere (a release's "current" link).
	rel1, rel2, cur := filepath.Join(dir, "r1"), filepath.Join(dir, "r2"), filepath.Join(dir, "current")
	os.Mkdir(rel1, 0o755)
	os.Mkdir(rel2, 0o755)
	os.Symlink(rel1, cur)
	twice(t, env, "file", tasks.Args{"src": rel2, "dest": cur, "state": "link"}, func() bool { got, _ := os.Readlink(cur); return got == rel1 })
	if got, _ := os.Readlink(cur); got != rel2 {
		t.Fatalf("current -> %q", got)
	}
	if ents, _ := os.ReadDir(rel1); len(ents) != 0 {
		t.Fatalf("%s has %v", rel1, ents)
	}
	h := filepath.Join(d, "h")
	res = twice(t, env, "file", tasks.Args{"src": f, "dest": h, "state": "hard"}, func() bool { return !modtest.Exists(h) })
	if res.Data["state"] != "hard" {
		t.Fatalf("hard %+v", res)
	}
	res = twice(t, env, "file", tasks.Args{"path": h, "state": "absent"}, func() bool { return modtest.Exists(h) })
	if modtest.Exists(h) || res.Data["state"] != "absent" {
		t.Fatalf("absent %+v", res)
	}
	top := filepath.Dir(d)
	twice(t, env, "file", tasks.Args{"path": top, "state": "directory", "mode": "0755", "recurse": true}, func() bool { return mode(t, f) == 0o600 })
	if mode(t, f) != 0o755 || mode(t, d) != 0o755 {
		t.Fatal(mode(t, f))
	}
	cc.Runs = 0
	modtest.RunMod(t, env, "file", tasks.Args{"path": top, "state": "absent"})
	if modtest.Exists(top) || cc.Runs != 1 {
		t.Fatal("not removed")
	}
}

func TestFileFailures(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	f := filepath.Join(dir, "f")
	os.WriteFile(f, nil, 0o644)
	for _, c := range []struct {
		args tasks.Args
		msg  string
	}{
		{tasks.Args{"path": dir + "/nope"}, "file (" + dir + "/nope) is absent, cannot continue"},
		{tasks.Args{"path": f, "state": "directory"}, f + " already exists as a file"},
		{tasks.Args{"path": dir + "/l", "src": dir + "/none", "state": "link"}, `src file does not exist, use "force=yes" if you really want to create the link: ` + dir + "/none"},
		{tasks.Args{"path": f, "src": dir, "state": "link"}, "refusing to convert from file to symlink for " + f},
		{tasks.Args{"path": f, "src": "x"}, "src option requires state to be 'link' or 'hard'"},
		// Without state, the path's own (a file here) is still not a directory.
		{tasks.Args{"path": f, "recurse": true}, "recurse option requires state to be 'directory'"},
		{tasks.Args{"path": f, "owner": "no-such-user-x"}, "chown failed: failed to look up user no-such-user-x"},
		{tasks.Args{"path": dir + "/no/f", "state": "touch"}, "Error, could not touch target: [Errno 2] No such file or directory: b'" + dir + "/no/f'"},
		// a component that is a file: Python's OSError of os.mkdir
		{tasks.Args{"path": f + "/sub/d", "state": "directory"}, "There was an issue creating " + f + "/sub as requested: [Errno 20] Not a directory: b'" + f + "/sub'"},
	} {
		res := modtest.RunMod(t, env, "file", c.args)
		if !res.Failed || res.Msg != c.msg {
			t.Errorf("%v: %+v", c.args, res)
		}
	}
	if _, err := fileArgs.Decode(tasks.Args{"path": f, "state": "dir"}); err == nil || !strings.Contains(err.Error(), "value of state must be one of") {
		t.Fatal(err)
	}
	// A refusal before the work says the path's attributes, as Ansible's
	// fail_json adds them (nothing for a missing path).
	res := modtest.RunMod(t, env, "file", tasks.Args{"path": f, "state": "file", "recurse": true})
	if !res.Failed || res.Data["state"] != "file" || res.Data["mode"] != "0644" {
		t.Fatalf("%+v", res)
	}
	res = modtest.RunMod(t, env, "file", tasks.Args{"path": dir + "/nope", "state": "file", "recurse": true})
	if !res.Failed || res.Data["state"] != nil || res.Data["mode"] != nil {
		t.Fatalf("%+v", res)
	}
	res = modtest.RunMod(t, env, "file", tasks.Args{"path": dir + "/l", "src": dir + "/none", "state": "link", "force": true})
	if !res.Changed || res.Failed {
		t.Fatalf("%+v", res)
	}
}

func TestFileDiff(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	env.Diff = true
	f := filepath.Join(dir, "f")
	os.WriteFile(f, nil, 0o644)
	res := modtest.RunMod(t, env, "file", tasks.Args{"path": f, "mode": "0600"})
	if !strings.Contains(res.Diff, `-    "mode": "0644",`) || !strings.Contains(res.Diff, `+    "mode": "0600",`) {
		t.Fatalf("%q", res.Diff)
	}
}

func TestFileTimes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	f := filepath.Join(dir, "f")
	res := modtest.RunMod(t, env, "file", tasks.Args{"path": f, "state": "touch", "modification_time": "2020-01-02 03:04", "modification_time_format": "%Y-%m-%d %H:%M", "access_time": "202001020304.05"})
	fi, err := os.Stat(f)
	if err != nil || res.Failed || fi.ModTime().Format("2006-01-02 15:04") != "2020-01-02 03:04" {
		t.Fatalf("%+v %v", res, fi)
	}
	// Python's strptime takes one digit for %S (find's target: "…1200.0").
	res = modtest.RunMod(t, env, "file", tasks.Args{"path": f, "state": "touch", "modification_time": "202001011200.0"})
	if fi, err = os.Stat(f); err != nil || res.Failed || fi.ModTime().Format("2006-01-02 15:04:05") != "2020-01-01 12:00:00" {
		t.Fatalf("%+v %v", res, fi)
	}
	res = modtest.RunMod(t, env, "file", tasks.Args{"path": f, "state": "touch", "modification_time": "bad"})
	if !res.Failed || res.Msg != "Error while obtaining timestamp for time bad using format %Y%m%d%H%M.%S: time data 'bad' does not match format '%Y%m%d%H%M.%S'" {
		t.Fatalf("%+v", res)
	}
}

// TestFileLinkWithoutSrcFollows: a link named without src, with follow
// (the default), keeps its target, and mode reaches the target, as
// Ansible's file module does for "path=LINK mode=0644".
func TestFileLinkWithoutSrcFollows(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("x"), 0o666)
	os.Chmod(target, 0o666)
	link := filepath.Join(dir, "link")
	os.Symlink("./target", link)
	env, _ := modtest.TestEnv(t, dir, nil)
	res := modtest.RunMod(t, env, "file", tasks.Args{"path": link, "mode": "0644", "follow": true})
	if res.Failed || !res.Changed {
		t.Fatalf("%+v", res)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o644 {
		t.Errorf("target mode %o, want 644", fi.Mode().Perm())
	}
	if got, _ := os.Readlink(link); got != "./target" {
		t.Errorf("the link now points at %q", got)
	}
	res = modtest.RunMod(t, env, "file", tasks.Args{"path": link, "state": "link", "mode": "0600", "follow": false})
	if res.Failed {
		t.Errorf("an existing link, not followed, without src: %+v", res)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o644 {
		t.Errorf("follow=false changed the target's mode to %o", fi.Mode().Perm())
	}
	res = modtest.RunMod(t, env, "file", tasks.Args{"path": filepath.Join(dir, "nolink"), "state": "link"})
	if !res.Failed || res.Msg != "src is required for creating new symlinks" {
		t.Errorf("a new link without src: %+v", res)
	}
}

// modification_time on a plain file (state file) is set like on touch:
// check mode reports the change, the real run makes it with the times in
// the diff, a second run has nothing to do (Ansible's modification_time
// tests of the file target).
func TestFileModificationTime(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	f := filepath.Join(dir, "f")
	os.WriteFile(f, []byte("x"), 0o644)
	mt := func() int64 { st, _ := os.Stat(f); return st.ModTime().Unix() }
	orig := mt()
	args := tasks.Args{"path": f, "modification_time": "202202081414.00", "modification_time_format": "%Y%m%d%H%M.%S"}
	res := twice(t, env, "file", args, func() bool { return mt() == orig })
	after, _ := res.Data["diff"].(map[string]any)["after"].(map[string]any)
	want, _ := time.ParseInLocation("200601021504.05", "202202081414.00", time.Local)
	if mt() != want.Unix() || after["mtime"] != float64(want.Unix()) || after["atime"] != nil {
		t.Fatalf("mtime %d, diff %+v", mt(), res.Data["diff"])
	}
}

// A touch that creates the file and then cannot give it the asked owner
// fails and leaves no file behind, as Ansible's does.
func TestFileTouchFailRemovesNewFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	f := filepath.Join(dir, "baz.txt")
	res := modtest.RunMod(t, env, "file", tasks.Args{"path": f, "state": "touch", "owner": "tender-no-such-user"})
	if !res.Failed || modtest.Exists(f) || res.Msg != "chown failed: failed to look up user tender-no-such-user" {
		t.Fatalf("exists %v: %+v", modtest.Exists(f), res)
	}
	// an existing file stays
	os.WriteFile(f, nil, 0o644)
	if res = modtest.RunMod(t, env, "file", tasks.Args{"path": f, "state": "touch", "owner": "tender-no-such-user"}); !res.Failed || !modtest.Exists(f) {
		t.Fatalf("exists %v: %+v", modtest.Exists(f), res)
	}
}

// A mode with a special bit is reported as Ansible's '0%03o' gives it:
// "01444" (the symbolic-mode tests of the file target).
func TestFileModeStickyBit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	f := filepath.Join(dir, "s")
	modtest.RunMod(t, env, "file", tasks.Args{"path": f, "state": "touch", "mode": "0444"})
	res := modtest.RunMod(t, env, "file", tasks.Args{"path": f, "state": "touch", "mode": "o+t"})
	if res.Failed || res.Data["mode"] != "01444" {
		t.Fatalf("%+v", res)
	}
	if d := res.Data["diff"].(map[string]any); d["before"].(map[string]any)["mode"] != "0444" || d["after"].(map[string]any)["mode"] != "01444" {
		t.Fatalf("%+v", d)
	}
}

// In check mode an unknown owner or group is a warning, by name or by id,
// and a known one is not (the check_mode owner/group tests of the file
// target).
func TestFileCheckModeUnknownOwner(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	env.Check = true
	f := filepath.Join(dir, "f")
	res := modtest.RunMod(t, env, "file", tasks.Args{"path": f, "owner": "tender-no-user", "group": "111119"})
	if len(res.Warnings) != 2 || res.Warnings[0] != "failed to look up user tender-no-user. Create user up to this point in real play" ||
		res.Warnings[1] != "failed to look up group with gid 111119. Create group up to this point in real play" {
		t.Fatalf("%+v", res)
	}
	res = modtest.RunMod(t, env, "file", tasks.Args{"path": f, "owner": "0", "group": "root", "state": "touch"})
	if len(res.Warnings) != 0 {
		t.Fatalf("%+v", res)
	}
}

// A touch to now sets both times in one call (utime to now, which a
// writer who does not own the file may do); two calls, each leaving one
// time as it is, would need ownership (the write_utime test of the file
// target, touching as nobody a root file mode 0666).
func TestFileTouchNowOneCall(t *testing.T) {
	dir := t.TempDir()
	shim, log := filepath.Join(dir, "bin"), filepath.Join(dir, "log")
	os.Mkdir(shim, 0o755)
	real, err := exec.LookPath("touch")
	if err != nil {
		t.Skip(err)
	}
	os.WriteFile(filepath.Join(shim, "touch"), []byte("#!/bin/sh\necho \"$*\" >>"+log+"\nexec "+real+" \"$@\"\n"), 0o755)
	t.Setenv("PATH", shim+":"+os.Getenv("PATH"))
	env, _ := modtest.TestEnv(t, dir, nil)
	f := filepath.Join(dir, "f")
	os.WriteFile(f, nil, 0o666)
	if res := modtest.RunMod(t, env, "file", tasks.Args{"path": f, "state": "touch"}); !res.Changed || res.Failed {
		t.Fatalf("%+v", res)
	}
	if got := modtest.ReadFile(t, log); got != "-c -- "+f+"\n" {
		t.Fatalf("touch calls %q", got)
	}
}

// recurse with follow gives the targets of the links under the directory
// (and a linked directory's contents) the attributes too; without follow
// they are left alone (the follow + recurse tests of the file target).
func TestFileRecurseFollow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	top, tf, td := filepath.Join(dir, "top"), filepath.Join(dir, "tf"), filepath.Join(dir, "td")
	os.Mkdir(top, 0o755)
	os.WriteFile(tf, nil, 0o700)
	os.Mkdir(td, 0o700)
	os.WriteFile(filepath.Join(td, "foo"), nil, 0o700)
	os.Symlink("../tf", filepath.Join(top, "l"))
	os.Symlink("../td", filepath.Join(top, "ld"))
	os.Symlink("nope", filepath.Join(top, "dangling"))
	modtest.RunMod(t, env, "file", tasks.Args{"path": top, "follow": false, "mode": "a-x", "recurse": true})
	if mode(t, tf) != 0o700 || mode(t, td) != 0o700 || mode(t, filepath.Join(td, "foo")) != 0o700 {
		t.Fatal("not followed, the targets changed")
	}
	if res := modtest.RunMod(t, env, "file", tasks.Args{"path": top, "follow": true, "mode": "a-x", "recurse": true}); res.Failed || !res.Changed {
		t.Fatalf("%+v", res)
	}
	if mode(t, tf) != 0o600 || mode(t, td) != 0o600 || mode(t, filepath.Join(td, "foo")) != 0o600 {
		t.Fatalf("followed: %o %o %o", mode(t, tf), mode(t, td), mode(t, filepath.Join(td, "foo")))
	}
}
