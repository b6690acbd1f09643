//go:build e2e

package files

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestSecontextFleet runs testdata/secontext/tasks.yml (file, copy,
// lineinfile, blockinfile, replace, ini_file and stat on new and
// existing files, a directory and a link, with and without
// seuser, serole, setype and selevel, _default, a type the policy does
// not know, check mode) with tender on a fresh fleet VM booted with
// SELinux (Debian's reference policy, permissive), and compares every
// result, and the files' contexts between them, with what
// ansible-core 2.14 returned on an identical VM
// (testdata/secontext/ansible.json, recorded by gen.sh).
func TestSecontextFleet(t *testing.T) {
	dir := "../testdata/secontext"
	env := modtest.InitVMBoot(t, dir, "", "security=selinux")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", nil)
}
