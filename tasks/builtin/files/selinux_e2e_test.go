//go:build e2e

package files

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestSelinuxFleet runs testdata/selinux/tasks.yml (argument errors; the
// state and policy already set; check mode; a policy that is not
// installed; disabled and back to permissive; a config file without a
// SELINUX= line, through both aliases; a missing config file; enforcing
// turned on) with tender's selinux on a fresh fleet VM booted with
// SELinux (Debian's reference policy, permissive), and compares every
// result, and the config between them, with what ansible.posix 1.5.4's
// selinux returned on an identical VM (testdata/selinux/ansible.json,
// recorded by gen.sh).
func TestSelinuxFleet(t *testing.T) {
	dir := "../testdata/selinux"
	env := modtest.InitVMBoot(t, dir, "setup.sh", "security=selinux")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", nil)
}
