package net

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// fakeSvn is an svn that logs its command line and what it read on
// stdin, answers --version --quiet with $FAKE_STATE/ver, checks out
// (an empty directory) and answers info about a checkout; a checkout of
// file:///bad fails with an error that repeats the password.
const fakeSvn = `
echo "argv: $*" >>"$FAKE_STATE/log"
case " $* " in *" --password-from-stdin "*) IFS= read -r pw; echo "stdin: $pw" >>"$FAKE_STATE/log" ;; esac
case " $* " in *" --version --quiet "*) cat "$FAKE_STATE/ver"; exit 0 ;; esac
for a; do last=$a; done
case " $* " in
*" checkout "*)
	case " $* " in *" file:///bad "*) echo "svn: E170013: Unable to connect to a repository at URL 'file:///bad' (s3cret)" >&2; exit 1 ;; esac
	mkdir -p "$last"; echo "A    $last/a" ;;
*" info "*)
	[ -d "$last" ] || { echo "svn: E155007: '$last' is not a working copy" >&2; exit 1; }
	printf 'Path: %s\nURL: file:///r\nRevision: 3\n' "$last" ;;
esac
`

// TestSubversionPasswordOnStdin checks that the password reaches svn on
// its standard input and never its command line, that a failure hides
// it (the command line as ansible-core reports it, with the word after
// --password-from-stdin hidden too), and that an svn too old to read it
// from stdin fails the task before anything runs.
func TestSubversionPasswordOnStdin(t *testing.T) {
	bin, state := modtest.FakeTools(t, map[string]string{"svn": fakeSvn})
	os.WriteFile(filepath.Join(state, "ver"), []byte("1.14.2\n"), 0o644)
	env, cc := modtest.TestEnv(t, t.TempDir(), nil)
	cc.Conn = modtest.FakeBinConn{Conn: cc.Conn, Dir: bin}
	dest := filepath.Join(state, "co")
	args := tasks.Args{"repo": "file:///r", "dest": dest, "username": "alice", "password": "s3cret"}
	res := modtest.RunMod(t, env, "subversion", args)
	if !res.Changed || res.Failed || res.Data["before"] != nil {
		t.Fatalf("checkout: %+v", res)
	}
	if after, _ := json.Marshal(res.Data["after"]); string(after) != `["Revision: 3","URL: file:///r"]` {
		t.Errorf("after: %s", after)
	}
	log := modtest.FakeLog(t, state)
	if !strings.Contains(log, "argv: --non-interactive --no-auth-cache --trust-server-cert --username alice --password-from-stdin checkout -r HEAD file:///r "+dest) ||
		!strings.Contains(log, "stdin: s3cret") || strings.Contains(strings.ReplaceAll(log, "stdin: s3cret", ""), "s3cret") {
		t.Errorf("svn's log:\n%s", log)
	}
	args["repo"], args["dest"] = "file:///bad", filepath.Join(state, "bad")
	res = modtest.RunMod(t, env, "subversion", args)
	b, _ := json.Marshal(modtest.Registered(res))
	if !res.Failed || strings.Contains(string(b), "s3cret") ||
		res.Data["cmd"] != filepath.Join(bin, "svn")+" --non-interactive --no-auth-cache --trust-server-cert --username alice --password-from-stdin '********' -r HEAD file:///bad "+filepath.Join(state, "bad") {
		t.Errorf("a failure: %s", b)
	}
	os.WriteFile(filepath.Join(state, "ver"), []byte("1.9.7\n"), 0o644)
	os.Remove(filepath.Join(state, "log"))
	args["repo"], args["dest"] = "file:///r", filepath.Join(state, "old")
	res = modtest.RunMod(t, env, "subversion", args)
	if !res.Failed || !strings.Contains(res.Msg, "svn 1.9.7 cannot read a password from its standard input") {
		t.Errorf("an old svn: %+v", res)
	}
	if log := modtest.FakeLog(t, state); strings.Contains(log, "checkout") {
		t.Errorf("an old svn ran:\n%s", log)
	}
}
