package system

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestPlainPassword: the hashes Ansible accepts quietly, and the values it
// warns about as not hashed.
func TestPlainPassword(t *testing.T) {
	for pw, plain := range map[string]bool{
		"$6$tendersalt$fYuxjR.L8Vo9jOnl.9KDIuhYItZWHmF1o2pyLx3zlQtU.U7QRQzG2OPFRYoY/dBv6qXfTQliQqZaX2IfOKXzk/": false,
		"$6$salt$short":                      true,
		"$1$salt$" + strings.Repeat("a", 22): false,
		"$y$j9T$salt$hash":                   false,
		"!":                                  false,
		"*":                                  false,
		"secret":                             true,
		"$6$salt$bad:chars":                  true,
		"$5$":                                true,
	} {
		if got := plainPassword(pw); got != plain {
			t.Errorf("plainPassword(%q) = %v, want %v", pw, got, plain)
		}
	}
}

// TestUserSecretNotInScript: the password hash and the ssh key's
// passphrase travel on the script's standard input (the hash on its
// first line), never in its text or its environment.
func TestUserSecretNotInScript(t *testing.T) {
	hash := "$6$tendersalt$fYuxjR.L8Vo9jOnl.9KDIuhYItZWHmF1o2pyLx3zlQtU.U7QRQzG2OPFRYoY/dBv6qXfTQliQqZaX2IfOKXzk/"
	const pp = "pass phrase!"
	for _, c := range []struct {
		args tasks.Args
		in   string
	}{
		{tasks.Args{"name": "u", "password": hash}, hash + "\n"},
		{tasks.Args{"name": "u", "generate_ssh_key": true, "ssh_key_passphrase": pp}, pp},
		{tasks.Args{"name": "u", "password": hash, "generate_ssh_key": true, "ssh_key_passphrase": pp}, hash + "\n" + pp},
	} {
		rec := &modtest.RecordingConn{}
		env := &tasks.Env{Host: "h", Conn: rec}
		if _, err := (userModule{}).Run(t.Context(), env, c.args); err != nil {
			t.Fatal(err)
		}
		if len(rec.Cmds) != 1 {
			t.Fatalf("%d scripts, want 1", len(rec.Cmds))
		}
		cmd := rec.Cmds[0]
		for _, secret := range []string{hash, pp} {
			if strings.Contains(cmd.Script, secret) || strings.Contains(fmt.Sprint(cmd.Env), secret) {
				t.Fatalf("a secret is in the script's text or environment")
			}
		}
		if cmd.Stdin == nil {
			t.Fatal("the script has no standard input")
		}
		if in, _ := io.ReadAll(cmd.Stdin); string(in) != c.in {
			t.Fatalf("the script's input is %q, want %q", in, c.in)
		}
	}
}

// TestUserLocalRefused: umask with local fails as in Ansible; local: true
// (libuser) is refused with a reason, before anything runs.
func TestUserLocalRefused(t *testing.T) {
	for args, want := range map[string]tasks.Args{
		"'umask' can not be used with 'local'":                  {"name": "u", "umask": "077", "local": true},
		"local: true is not supported by tender: it " + libuser: {"name": "u", "local": true},
	} {
		rec := &modtest.RecordingConn{}
		res, err := (userModule{}).Run(t.Context(), &tasks.Env{Host: "h", Conn: rec}, want)
		if err != nil || !res.Failed || res.Msg != args || len(rec.Cmds) != 0 {
			t.Errorf("%v: %+v %v (%d scripts)", want, res, err, len(rec.Cmds))
		}
	}
}
