package services

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
)

// TestSysvinitDaemonize: with daemonize the init script runs from /, as
// Ansible's daemonize runs it; without, from the task's directory.
func TestSysvinitDaemonize(t *testing.T) {
	env, m, script, state := sysvinitFake(t, `case $1 in status) exit 3 ;; start) pwd >"$FAKE_STATE/cwd" ;; esac`)
	work := t.TempDir()
	t.Chdir(work)
	for _, c := range []struct {
		daemonize bool
		want      string
	}{{true, "/"}, {false, work}} {
		res, err := m.Run(context.Background(), env, tasks.Args{"name": script, "state": "started", "daemonize": c.daemonize})
		if err != nil || res.Failed || !res.Changed {
			t.Fatalf("daemonize %v: %+v %v", c.daemonize, res, err)
		}
		got, _ := os.ReadFile(filepath.Join(state, "cwd"))
		if w, _ := filepath.EvalSymlinks(c.want); strings.TrimSpace(string(got)) != c.want && strings.TrimSpace(string(got)) != w {
			t.Errorf("daemonize %v: ran from %q, want %q", c.daemonize, got, c.want)
		}
	}
}
