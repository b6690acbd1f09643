package packages

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// TestDebconfPasswordMasked: a password answer never appears in a
// script's text, its environment or the result; it travels on the
// script's standard input.
func TestDebconfPasswordMasked(t *testing.T) {
	rec := &modtest.RecordingConn{}
	env := &tasks.Env{Host: "h", Conn: rec}
	res, err := (debconfModule{}).Run(t.Context(), env, tasks.Args{"name": "mysql-server",
		"question": "mysql-server/root_password", "vtype": "password", "value": "s3cret-value"})
	if err != nil || res.Failed {
		t.Fatalf("%v %+v", err, res)
	}
	if len(rec.Cmds) != 2 {
		t.Fatalf("%d scripts, want 2 (read, set)", len(rec.Cmds))
	}
	for _, c := range rec.Cmds {
		if strings.Contains(c.Script, "s3cret") || strings.Contains(fmt.Sprint(c.Env), "s3cret") {
			t.Fatalf("the value is in a script's text or environment")
		}
	}
	if rec.Cmds[1].Stdin == nil {
		t.Fatal("the set script has no standard input")
	}
	in, _ := io.ReadAll(rec.Cmds[1].Stdin)
	if string(in) != "mysql-server mysql-server/root_password password s3cret-value" {
		t.Fatalf("debconf-set-selections' input %q", in)
	}
	cur := res.Data["current"].(map[string]any)
	if cur["mysql-server/root_password"] != shared.MaskedValue || !res.Changed {
		t.Fatalf("result %+v", res.Data)
	}
}
