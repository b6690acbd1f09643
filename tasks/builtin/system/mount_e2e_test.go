//go:build e2e

package system

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestMountFleet runs testdata/mount/tasks.yml (fstab lines added,
// changed, escaped and removed, four- and five-field lines, swap lines,
// boot=false, backups, another fstab, check mode, tmpfs and bind mounts
// mounted, remounted, unmounted and removed, ephemeral mounts, mount and
// remount failures, bad arguments) with tender's mount on a fresh
// debian-sys host with SYS_ADMIN after setup.sh, and compares every
// result, and what the shell tasks between them show of the fstab and
// the mount table, with what ansible-core returned on an identical host
// (testdata/mount/ansible.json, recorded by gen.sh).
func TestMountFleet(t *testing.T) {
	dir := "../testdata/mount"
	env := modtest.InitHost(t, "sysadmin", dir, "setup.sh")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", map[string][]string{
		// An fstab that is a directory: ansible's module dies with a
		// Python traceback (MODULE FAILURE, its text in module_stdout);
		// tender fails with the error itself.
		"m_alt_dir": {"msg", "module_stdout", "rc"},
		// Check mode changes nothing in tender: a missing fstab is not
		// created (Ansible's module creates it, empty).
		"m_alt_new_show": {"failed", "msg", "rc", "stderr", "stderr_lines", "stdout", "stdout_lines"},
	})
}
