package builtin

import (
	"context"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision/transport"
	"github.com/tender-sh/tender/tasks"
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

// TestUserSecretNotInScript: the password hash travels in the script's
// environment, never in its text as a command argument, and the result
// shows Ansible's placeholder.
func TestUserSecretNotInScript(t *testing.T) {
	rec := &recordingConn{}
	env := &tasks.Env{Host: "h", Conn: rec}
	hash := "$6$tendersalt$fYuxjR.L8Vo9jOnl.9KDIuhYItZWHmF1o2pyLx3zlQtU.U7QRQzG2OPFRYoY/dBv6qXfTQliQqZaX2IfOKXzk/"
	if _, err := (userModule{}).Run(t.Context(), env, tasks.Args{"name": "u", "password": hash}); err != nil {
		t.Fatal(err)
	}
	if len(rec.cmds) != 1 {
		t.Fatalf("%d scripts, want 1", len(rec.cmds))
	}
	if strings.Contains(rec.cmds[0].Script, hash) || rec.cmds[0].Env["T_PW"] != hash {
		t.Fatalf("the hash must travel in Env only")
	}
	if !strings.HasPrefix(rec.cmds[0].Script, "_pw=${T_PW-}; unset T_PW\n") {
		t.Fatalf("the hash must leave the environment before any command runs")
	}
}

// recordingConn records the scripts it is asked to run and answers each
// with an empty verdict.
type recordingConn struct {
	transport.Conn
	cmds []transport.Cmd
}

func (c *recordingConn) Run(_ context.Context, cmd transport.Cmd) (transport.Result, error) {
	c.cmds = append(c.cmds, cmd)
	return transport.Result{Stdout: []byte("changed=0\n")}, nil
}
