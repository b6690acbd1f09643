//go:build e2e

package system

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestLvgFleet runs testdata/lvg/tasks.yml (argument errors; a volume
// group created, extended, reduced and removed, by devices given as a
// list, as text and through a symlink; a device in another group; a
// group holding a volume, refused without force; options for pvcreate
// and vgcreate; physical volumes grown with pvresize; LVM's own errors;
// check mode) with tender's lvg on a fresh fleet VM (real device-mapper,
// empty disks /dev/vdb and /dev/vdc), and compares every result, and
// LVM's state between them, with what community.general 6.6.2's lvg
// returned on an identical VM (testdata/lvg/ansible.json, recorded by
// gen.sh).
func TestLvgFleet(t *testing.T) {
	dir := "../testdata/lvg"
	env := modtest.InitVM(t, dir, "")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", nil)
}
