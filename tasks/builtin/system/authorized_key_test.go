package system

import (
	"context"
	"os"
	"os/user"
	"path/filepath"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestAuthorizedKeyPath runs authorized_key on a keys file in a temporary
// directory as the current user: add, add again, check mode, options,
// exclusive and absent, reading the file after each step.
func TestAuthorizedKeyPath(t *testing.T) {
	t.Parallel()
	me, err := user.Current()
	if err != nil {
		t.Skip(err)
	}
	env, _ := modtest.TestEnv(t, "", nil)
	path := filepath.Join(t.TempDir(), "sub", "keys")
	step := func(check bool, args tasks.Args, changed bool, want string) {
		t.Helper()
		args["user"], args["path"], args["manage_dir"] = me.Username, path, false
		env.Check = check
		res, err := authorizedKeyModule{}.Run(context.Background(), env, args)
		if err != nil || res.Failed {
			t.Fatalf("%v: %v %s", args, err, res.Msg)
		}
		if res.Changed != changed {
			t.Fatalf("%v: changed %v, want %v", args, res.Changed, changed)
		}
		got, _ := os.ReadFile(path)
		if string(got) != want {
			t.Fatalf("%v: file %q, want %q", args, got, want)
		}
		if res.Data["keyfile"] != path {
			t.Fatalf("keyfile %v", res.Data["keyfile"])
		}
	}
	one, two := modtest.TestKey1+"\n", modtest.TestKey2+"\n"
	step(true, tasks.Args{"key": modtest.TestKey1}, true, "")
	step(false, tasks.Args{"key": modtest.TestKey1}, true, one)
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode())
	}
	step(false, tasks.Args{"key": modtest.TestKey1}, false, one)
	step(false, tasks.Args{"key": "# comment\n" + modtest.TestKey1 + "\n" + modtest.TestKey2}, true, one+two)
	opts := `no-pty,from="10.0.0.1,10.0.0.2" `
	step(false, tasks.Args{"key": modtest.TestKey2, "key_options": `no-pty,from="10.0.0.1,10.0.0.2"`}, true, one+opts+modtest.TestKey2+"\n")
	step(false, tasks.Args{"key": opts + modtest.TestKey2}, false, one+opts+modtest.TestKey2+"\n")
	step(false, tasks.Args{"key": modtest.TestKey1, "comment": "renamed"}, true, opts+modtest.TestKey2+"\n"+"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIfGDQ0/xbwRF4gkNoJw32NX4lsoA7X5hlPJr9PM0hbC renamed\n")
	step(false, tasks.Args{"key": modtest.TestKey1, "state": "absent"}, true, opts+modtest.TestKey2+"\n")
	step(false, tasks.Args{"key": modtest.TestKey1, "state": "absent"}, false, opts+modtest.TestKey2+"\n")
	step(false, tasks.Args{"key": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIfGDQ0/xbwRF4gkNoJw32NX4lsoA7X5hlPJr9PM0hbC", "exclusive": true},
		true, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIfGDQ0/xbwRF4gkNoJw32NX4lsoA7X5hlPJr9PM0hbC \n")

	env.Check = false
	res, err := authorizedKeyModule{}.Run(context.Background(), env, tasks.Args{"user": me.Username, "path": path, "key": "not a key"})
	if err != nil || !res.Failed || res.Msg != "invalid key specified: not a key" {
		t.Fatalf("invalid key: %v %+v", err, res)
	}
}

// TestKeyFileRoundTrip: a file read and written back unchanged keeps its
// comments, blank lines and unparsable lines where they were.
func TestKeyFileRoundTrip(t *testing.T) {
	in := "# header\n\n" + modtest.TestKey1 + "\ngarbage line\n" + `command="echo a,b",no-pty ` + modtest.TestKey2 + "\n"
	if got := parseKeyFile(in).String(); got != in {
		t.Fatalf("round trip:\n%q\nwant\n%q", got, in)
	}
	k, ok := parseAuthKey(`command="echo a,b",no-pty `+modtest.TestKey2, 0)
	if !ok || len(k.Opts) != 2 || k.Opts[0].Name != "command" || *k.Opts[0].Value != `"echo a,b"` || k.Opts[1].Value != nil {
		t.Fatalf("options: %+v", k.Opts)
	}
}
