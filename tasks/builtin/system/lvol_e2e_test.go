//go:build e2e

package system

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestLvolFleet runs testdata/lvol/tasks.yml (argument and size errors;
// a volume created, grown and shrunk by absolute, relative and
// percentage sizes in several units; volumes placed on chosen physical
// volumes, given lvcreate options, deactivated and reactivated;
// snapshots, thin pools, thin volumes and their snapshots; a file system
// resized with its volume; removal; check mode) with tender's lvol on a
// fresh fleet VM (real device-mapper, a group on the empty disks
// /dev/vdb and /dev/vdc), and compares every result, and LVM's state
// between them, with what community.general 6.6.2's lvol returned on an
// identical VM (testdata/lvol/ansible.json, recorded by gen.sh).
func TestLvolFleet(t *testing.T) {
	dir := "../testdata/lvol"
	env := modtest.InitVM(t, dir, "")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", lvolExceptions)
}

// lvolExceptions are the keys left out of a task's comparison: where
// the module dies of a Python exception (a quote left open in opts; a
// relative size for a volume that does not exist), tender's MODULE
// FAILURE holds the exception's last line, not Python's whole traceback;
// and where the module deactivates a volume in check mode (its lvchange
// gets no --test), tender changes nothing, so the volume is still active
// after the check (tasks/builtin/DIFFERENCES.md).
var lvolExceptions = map[string][]string{
	"lvol_opts_unclosed":        {"module_stdout"},
	"lvol_create_plus":          {"module_stdout"},
	"lvol_inactive_after_check": {"stdout", "stdout_lines"},
	"lvol_inactive":             {"changed"},
}
