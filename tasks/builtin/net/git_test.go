package net

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// gitRepo makes a bare repository under dir with a work tree that
// commits to it, and returns the bare repository's path and a function
// that commits a line to file f there and pushes it. The machine's git
// does it; tests that need one skip without it.
func gitRepo(t *testing.T, dir string) (string, func(msg string)) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on this machine")
	}
	git := func(wd string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = wd
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	bare, work := filepath.Join(dir, "main.git"), filepath.Join(dir, "work")
	git(dir, "init", "-q", "--bare", "-b", "master", bare)
	git(dir, "clone", "-q", bare, work)
	commit := func(msg string) {
		f, err := os.OpenFile(filepath.Join(work, "f"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(msg + "\n")
		f.Close()
		git(work, "add", "f")
		git(work, "commit", "-q", "-m", msg)
		git(work, "push", "-q", "origin", "HEAD:master")
		git(bare, "update-server-info")
	}
	commit("one")
	git(work, "tag", "v1")
	git(work, "push", "-q", "origin", "v1")
	return bare, commit
}

// gitOut runs git in dir and returns its output.
func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestGitCheckModeChangesNothing runs git on a clone whose remote moved:
// check mode with diff shows the diff ansible-core's shows (the new
// commit's change) yet leaves every ref and the configuration as they
// were (ansible-core's fetches into them); the run then changes it, and
// a second run does not. Each task is one round trip.
func TestGitCheckModeChangesNothing(t *testing.T) {
	dir := t.TempDir()
	bare, commit := gitRepo(t, dir)
	env, cc := modtest.TestEnv(t, dir, nil)
	dest := filepath.Join(dir, "clone")
	args := tasks.Args{"repo": bare, "dest": dest}
	if res := modtest.RunMod(t, env, "git", args); !res.Changed || res.Failed || res.Data["before"] != nil || cc.Runs != 1 {
		t.Fatalf("clone (%d round trips): %+v", cc.Runs, res)
	}
	commit("two")
	refs := gitOut(t, dest, "for-each-ref")
	config, _ := os.ReadFile(filepath.Join(dest, ".git", "config"))
	env.Check, env.Diff = true, true
	res := modtest.RunMod(t, env, "git", tasks.Args{"repo": "file://" + bare, "dest": dest, "remote": "origin"})
	if !res.Changed || res.Failed || !strings.Contains(res.Diff, "+two") || res.Data["before"] == res.Data["after"] {
		t.Errorf("check mode: %+v", res)
	}
	if got := gitOut(t, dest, "for-each-ref"); got != refs {
		t.Errorf("check mode changed the refs:\n%s\nwas\n%s", got, refs)
	}
	if got, _ := os.ReadFile(filepath.Join(dest, ".git", "config")); string(got) != string(config) {
		t.Errorf("check mode changed the configuration:\n%s", got)
	}
	env.Check = false
	if res := modtest.RunMod(t, env, "git", args); !res.Changed || res.Failed || !strings.Contains(res.Diff, "+two") {
		t.Errorf("update: %+v", res)
	}
	env.Diff = false
	if res := modtest.RunMod(t, env, "git", args); res.Changed || res.Failed || cc.Runs != 4 {
		t.Errorf("second run (%d round trips in all): %+v", cc.Runs, res)
	}
}

// TestGitPasswordStaysOffCommandLines clones over HTTP from a URL with
// a password: no command line git or its remote helper ran shows the
// password (a logging git and logging remote helpers record them all),
// the repository's configuration holds the URL as given (as
// ansible-core's git leaves it), a second run is unchanged, and a
// failure shows the password as ********.
func TestGitPasswordStaysOffCommandLines(t *testing.T) {
	dir := t.TempDir()
	bare, _ := gitRepo(t, dir)
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Fatal(err)
	}
	real := strings.TrimSpace(string(out))
	// An exec path whose remote helpers log their command lines, beside
	// a git that logs its own and uses that exec path.
	execPath, log := filepath.Join(dir, "exec"), filepath.Join(dir, "argv.log")
	os.Mkdir(execPath, 0o755)
	entries, _ := os.ReadDir(real)
	for _, e := range entries {
		p := filepath.Join(execPath, e.Name())
		if strings.HasPrefix(e.Name(), "git-remote-http") {
			os.WriteFile(p, []byte("#!/bin/sh\nprintf '%s\\n' \"$0 $*\" >>"+shared.Q(log)+"\nexec "+shared.Q(filepath.Join(real, e.Name()))+" \"$@\"\n"), 0o755)
		} else {
			os.Symlink(filepath.Join(real, e.Name()), p)
		}
	}
	gitBin := filepath.Join(dir, "git")
	os.WriteFile(gitBin, []byte("#!/bin/sh\nprintf '%s\\n' \"git $*\" >>"+shared.Q(log)+"\nGIT_EXEC_PATH="+shared.Q(execPath)+
		" exec "+shared.Q(filepath.Join(real, "git"))+" \"$@\"\n"), 0o755)
	u := strings.Replace(srv.URL, "http://", "http://alice:s3cret@", 1) + "/main.git"
	env, _ := modtest.TestEnv(t, dir, nil)
	dest := filepath.Join(dir, "clone")
	args := tasks.Args{"repo": u, "dest": dest, "executable": gitBin}
	res := modtest.RunMod(t, env, "git", args)
	if !res.Changed || res.Failed || res.Data["after"] != strings.TrimSpace(gitOut(t, bare, "rev-parse", "HEAD")) {
		t.Fatalf("clone: %+v", res)
	}
	if got := strings.TrimSpace(gitOut(t, dest, "config", "remote.origin.url")); got != u {
		t.Errorf("remote.origin.url = %q, want %q", got, u)
	}
	if res := modtest.RunMod(t, env, "git", args); res.Changed || res.Failed || res.Data["remote_url_changed"] != false {
		t.Errorf("second run: %+v", res)
	}
	args["repo"], args["dest"] = strings.Replace(u, "main.git", "nope.git", 1), filepath.Join(dir, "nope")
	res = modtest.RunMod(t, env, "git", args)
	b, _ := json.Marshal(modtest.Registered(res))
	if !res.Failed || strings.Contains(string(b), "s3cret") || !strings.Contains(string(b), "alice:********@") {
		t.Errorf("a failure: %s", b)
	}
	logged, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(logged), "s3cret") || !strings.Contains(string(logged), "git-remote-http") {
		t.Errorf("command lines:\n%s", logged)
	}
}

// TestGitArgs checks what git reads from its arguments before it runs
// anything: umask as ansible-core's int(umask, 8) reads it, a URL's
// password, and the quoting of the configuration it writes.
func TestGitArgs(t *testing.T) {
	for _, c := range []struct {
		in             any
		umask, msg, dt string
	}{
		{"0022", "0022", "", ""},
		{" 0o27 ", "0027", "", ""},
		{"7_7", "0077", "", ""},
		{"089", "", "umask must be an octal integer", "invalid literal for int() with base 8: '089'"},
		{18, "", "umask must be defined as a quoted octal integer", ""},
	} {
		u, msg, dt := gitUmask(tasks.Values{"umask": c.in})
		if u != c.umask || msg != c.msg || dt != c.dt {
			t.Errorf("umask %v: %q %q %q", c.in, u, msg, dt)
		}
	}
	for in, want := range map[string]gitSecret{
		"https://bob:p%40ss@h.example/r.git": {password: "p@ss", stripped: "https://bob@h.example/r.git", forms: []string{"p@ss", "p%40ss"}},
		"http://a:b@h:8080/x":                {password: "b", stripped: "http://a@h:8080/x", forms: []string{"b"}},
	} {
		got, ok := gitPassword(in)
		if !ok || got.password != want.password || got.stripped != want.stripped || strings.Join(got.forms, " ") != strings.Join(want.forms, " ") {
			t.Errorf("gitPassword(%q) = %+v", in, got)
		}
	}
	for _, in := range []string{"https://bob@h/r.git", "git@github.com:o/r.git", "/srv/r.git", "ssh://h:22/r"} {
		if _, ok := gitPassword(in); ok {
			t.Errorf("gitPassword(%q) found a password", in)
		}
	}
	if got := gitConfigEscape("a\"b\\c\td\n", true); got != `"a\"b\\c\td\n"` {
		t.Errorf("gitConfigEscape: %s", got)
	}
}
