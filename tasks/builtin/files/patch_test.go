package files

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestPatchWords checks the dry run's and the patch's command lines, in
// the module's order, for each option.
func TestPatchWords(t *testing.T) {
	cases := []struct {
		args        tasks.Args
		check       bool
		test, apply string
	}{
		{tasks.Args{"src": "p", "dest": "/f"}, false,
			"--quiet --forward --strip=0 --directory=$basedir --input=$src --dry-run $dest --reverse",
			"--quiet --forward --batch --reject-file=- --strip=0 --directory=$basedir --input=$src $dest"},
		{tasks.Args{"src": "p", "basedir": "/d", "strip": 2, "state": "absent", "backup": true}, true,
			"--quiet --forward --strip=2 --directory=$basedir --input=$src --dry-run",
			"--quiet --forward --batch --reject-file=- --strip=2 --directory=$basedir --input=$src --dry-run --backup --version-control=numbered --reverse"},
		{tasks.Args{"src": "p", "dest": "/f", "binary": true, "ignore_whitespace": true}, false,
			"--quiet --forward --strip=0 --directory=$basedir --input=$src --dry-run --binary --ignore-whitespace $dest --reverse",
			"--quiet --forward --batch --reject-file=- --strip=0 --directory=$basedir --input=$src --binary --ignore-whitespace $dest"},
	}
	for _, c := range cases {
		a, err := patchArgs.Decode(c.args)
		if err != nil {
			t.Fatal(err)
		}
		test, apply := patchWords(a, c.check)
		if got := strings.Join(test, " "); got != c.test {
			t.Errorf("%v: test %q, want %q", c.args, got, c.test)
		}
		if got := strings.Join(apply, " "); got != c.apply {
			t.Errorf("%v: apply %q, want %q", c.args, got, c.apply)
		}
	}
	if got := shWords([]string{"--strip=1", "--directory=$basedir", "--input=$src", "$dest", "x y"}); got != `--strip=1 --directory="$basedir" --input="$src" "$dest" 'x y'` {
		t.Errorf("shWords = %s", got)
	}
}

// TestPatchArgs checks the rules the action and the module apply first.
func TestPatchArgs(t *testing.T) {
	for v, want := range map[any]bool{true: true, "yes": true, "True": true, 1: true, "": false, "maybe": false, 0: false, false: false} {
		if lenientBool(v) != want {
			t.Errorf("lenientBool(%v) = %v", v, !want)
		}
	}
	r, err := patchModule{}.Run(t.Context(), &tasks.Env{}, tasks.Args{"patchfile": "/x.patch", "dest": "/f", "remote_src": true})
	if err != nil || r.Msg != "src is required" {
		t.Errorf("patchfile alone: %+v %v", r, err)
	}
	if _, err := patchArgs.Decode(tasks.Args{"src": "/p", "remote_src": true}); err == nil || !strings.Contains(err.Error(), "one of the following is required: dest, basedir") {
		t.Errorf("no dest nor basedir: %v", err)
	}
}

// TestPatchResult checks the results the script's verdicts give.
func TestPatchResult(t *testing.T) {
	cases := []struct {
		out       string
		failed    bool
		changed   bool
		msg       string
		crashData bool
	}{
		{out: "changed=1\ndone=1\n", changed: true},
		{out: "changed=0\ndone=1\n"},
		{out: "fail=dest /x doesn't exist or not writable\n", failed: true, msg: "dest /x doesn't exist or not writable"},
		{out: "nobin=1\n", failed: true, msg: "patch command not found"},
		{out: "failed=1\nrc=1\n\n__T_OUT__\n1 out of 1 hunk FAILED\n\n__T_ERR__\n", failed: true, msg: "1 out of 1 hunk FAILED\n"},
		{out: "failed=1\nrc=2\n\n__T_OUT__\nx\n\n__T_ERR__\n/usr/bin/patch: **** Only garbage was found in the patch input.\n", failed: true,
			msg: "/usr/bin/patch: **** Only garbage was found in the patch input.\n"},
		{out: "crash=1\n", failed: true, msg: "MODULE FAILURE\nSee stdout/stderr for the exact error", crashData: true},
		{out: "", failed: true, msg: "boom"},
	}
	for _, c := range cases {
		r := patchResult([]byte(c.out), "boom")
		if r.Failed != c.failed || r.Changed != c.changed || r.Msg != c.msg {
			t.Errorf("%q: %+v", c.out, r)
		}
		if _, ok := r.Data["module_stdout"]; ok != c.crashData {
			t.Errorf("%q: data %v", c.out, r.Data)
		}
		if !c.failed && !reflect.DeepEqual(r.Data, map[string]any{}) {
			t.Errorf("%q: data %v", c.out, r.Data)
		}
	}
}

// TestPatchLocal applies a controller patch to a file of this machine,
// again (unchanged), in check mode and reverted, through the module's
// script, when GNU patch is installed.
func TestPatchLocal(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Skip("no patch program")
	}
	dir := t.TempDir()
	env, cc := modtest.TestEnv(t, dir, nil)
	f := filepath.Join(dir, "one.txt")
	os.WriteFile(f, []byte("alpha\nbeta\ngamma\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "one.patch"), []byte("--- one.txt\n+++ one.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n"), 0o644)
	run := func(check bool, state string, wantChanged bool, want string) {
		t.Helper()
		env.Check = check
		before := cc.Runs
		r, err := patchModule{}.Run(t.Context(), env, tasks.Args{"src": "one.patch", "dest": f, "state": state})
		if err != nil || r.Failed || r.Changed != wantChanged {
			t.Fatalf("check=%v %s: %+v %v", check, state, r, err)
		}
		if cc.Runs-before != 1 {
			t.Errorf("%d round trips", cc.Runs-before)
		}
		if b, _ := os.ReadFile(f); string(b) != want {
			t.Errorf("check=%v %s: file %q", check, state, b)
		}
	}
	run(true, "present", true, "alpha\nbeta\ngamma\n")
	run(false, "present", true, "alpha\nBETA\ngamma\n")
	run(false, "present", false, "alpha\nBETA\ngamma\n")
	run(false, "absent", true, "alpha\nbeta\ngamma\n")
	run(false, "absent", false, "alpha\nbeta\ngamma\n")
	env.Check = false
	r, err := patchModule{}.Run(t.Context(), env, tasks.Args{"src": "one.patch", "dest": f + ".nope"})
	if err != nil || r.Msg != "dest "+f+".nope doesn't exist or not writable" {
		t.Errorf("missing dest: %+v %v", r, err)
	}
}
