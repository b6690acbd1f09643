//go:build e2e

package files

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestACLFleet runs testdata/acl/tasks.yml (queries, user, group, mask
// and other entries set and removed, entries written as entry, default
// ACLs, recursion, recalculate_mask, links with and without follow,
// NFSv4 entries, check mode, idempotence, bad arguments and setfacl's own
// errors) with tender's acl on a fresh debian-sys host after setup.sh,
// and compares every result, and the ACLs getfacl shows between them,
// with what ansible-core returned on an identical host
// (testdata/acl/ansible.json, recorded by gen.sh).
func TestACLFleet(t *testing.T) {
	dir := "../testdata/acl"
	env := modtest.InitHost(t, "sys", dir, "setup.sh")
	// Where the module itself crashes, Ansible returns Python's traceback,
	// which names the random directory the module ran from; tender's
	// ends with the same error line.
	crash := []string{"module_stdout"}
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", map[string][]string{
		"a_entry_bad_type":        crash,
		"a_entry_four_no_default": crash,
		"a_nfsv4_no_perms":        crash,
		"a_nfsv4_absent":          crash,
	})
}
