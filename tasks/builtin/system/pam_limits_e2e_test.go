//go:build e2e

package system

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestPamLimitsFleet runs testdata/pam_limits/tasks.yml (new, changed
// and unchanged limits in /etc/security/limits.conf and in files with
// comments, odd lines, duplicates and no final newline, use_max and
// use_min against numbers and unlimited values, the '-' type, backups,
// check mode (which, unlike Ansible's, creates no file and takes no
// backup), diff mode, and the
// failures: bad values in the task or in the file, bad choices, missing
// arguments, a missing directory, use_max with use_min, a directory as
// dest) with tender's pam_limits on a fresh debian-sys host after
// setup.sh, and compares every result, and what the shell tasks between
// them show of the files, with what ansible-core returned on an
// identical host (testdata/pam_limits/ansible.json, recorded by gen.sh).
func TestPamLimitsFleet(t *testing.T) {
	dir := "../testdata/pam_limits"
	env := modtest.InitHost(t, "sys", dir, "setup.sh")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", map[string][]string{
		// dest is a directory: the module dies of an exception whose
		// traceback Ansible's ssh connection puts in module_stdout;
		// tender gives the exception's line in module_stderr.
		"pl_is_dir": {"module_stdout"},
		// Check mode changes nothing in tender: no backup is taken and
		// a missing file is not created (Ansible's module does both),
		// so the listings after those tasks lack the backup and the
		// file checked.conf.
		"pl_backup_check":  {"backup_file"},
		"pl_backups":       {"stdout", "stdout_lines"},
		"pl_new_file_show": {"failed", "msg", "rc", "stderr", "stderr_lines", "stdout", "stdout_lines"},
		"pl_final":         {"stdout", "stdout_lines"},
	})
}
