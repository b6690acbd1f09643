package system

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestCronBackup: backup keeps the crontab as it was, in a new private
// crontab... file of the host's temporary directory named by backup_file,
// only when the task changes it, and never in check mode.
func TestCronBackup(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	env, _ := modtest.TestEnv(t, dir, nil)
	f := filepath.Join(dir, "jobs")
	os.WriteFile(f, []byte("# kept\nFOO=1\n"), 0o644)
	args := tasks.Args{"name": "x", "job": "/bin/true", "user": "root", "cron_file": f, "backup": true}
	env.Check = true
	if res := modtest.RunMod(t, env, "cron", args); !res.Changed || res.Data["backup_file"] != nil {
		t.Fatalf("check mode: %+v", res)
	}
	env.Check = false
	res := modtest.RunMod(t, env, "cron", args)
	b, _ := res.Data["backup_file"].(string)
	if !res.Changed || res.Failed || !strings.HasPrefix(filepath.Base(b), "crontab") || filepath.Dir(b) != dir {
		t.Fatalf("%+v", res)
	}
	if got := modtest.ReadFile(t, b); got != "# kept\nFOO=1\n" {
		t.Errorf("backup holds %q", got)
	}
	if st, err := os.Stat(b); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("backup file: %v %v", st, err)
	}
	if !strings.Contains(modtest.ReadFile(t, f), "/bin/true") {
		t.Errorf("the job was not written")
	}
	if again := modtest.RunMod(t, env, "cron", args); again.Changed || again.Data["backup_file"] != nil {
		t.Errorf("unchanged run: %+v", again)
	}
}
