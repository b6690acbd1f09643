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

// TestUserSecretNotInScript: the password hash travels on the script's
// standard input, never in its text or its environment.
func TestUserSecretNotInScript(t *testing.T) {
	rec := &modtest.RecordingConn{}
	env := &tasks.Env{Host: "h", Conn: rec}
	hash := "$6$tendersalt$fYuxjR.L8Vo9jOnl.9KDIuhYItZWHmF1o2pyLx3zlQtU.U7QRQzG2OPFRYoY/dBv6qXfTQliQqZaX2IfOKXzk/"
	if _, err := (userModule{}).Run(t.Context(), env, tasks.Args{"name": "u", "password": hash}); err != nil {
		t.Fatal(err)
	}
	if len(rec.Cmds) != 1 {
		t.Fatalf("%d scripts, want 1", len(rec.Cmds))
	}
	c := rec.Cmds[0]
	if strings.Contains(c.Script, hash) || strings.Contains(fmt.Sprint(c.Env), hash) {
		t.Fatalf("the hash is in the script's text or environment")
	}
	if c.Stdin == nil {
		t.Fatal("the script has no standard input")
	}
	if in, _ := io.ReadAll(c.Stdin); string(in) != hash {
		t.Fatalf("the script's input is %q, want the hash", in)
	}
}
