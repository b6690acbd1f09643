package services

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// The systemd path against systemctl is tested by TestSystemdTranscript
// (systemctl_test.go), which replays the real systemctl's answers; these
// are the checks made before systemctl is asked anything.

func TestSystemdArgs(t *testing.T) {
	if _, ok := modtest.Modules().Lookup("systemd"); !ok {
		t.Fatal("systemd not registered")
	}
	env, conn := modtest.TestEnv(t, t.TempDir(), nil)
	res := modtest.RunMod(t, env, "systemd", tasks.Args{"name": "web*", "state": "started"})
	if !res.Failed || !strings.Contains(res.Msg, "glob patterns, found '*'") {
		t.Errorf("glob: %+v", res)
	}
	f, _ := modtest.Modules().Lookup("systemd")
	if _, err := f().Run(t.Context(), env, tasks.Args{"enabled": true}); err == nil || !strings.Contains(err.Error(), "required by 'enabled': name") {
		t.Errorf("enabled without name: %v", err)
	}
	if conn.Runs != 0 {
		t.Errorf("%d round trips for tasks refused before any", conn.Runs)
	}
}

func TestParseSystemctlShow(t *testing.T) {
	got := parseSystemctlShow("A=1\nExecStart={ x ;\n y }\nB= two \nnoequals\n")
	want := map[string]any{"A": "1", "ExecStart": "{ x ;\n y }", "B": "two"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v", got)
	}
}
