//go:build e2e

package system

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestPartedFleet runs testdata/parted/tasks.yml (device reads in every
// unit, bad arguments, gpt and msdos labels, partitions created, named,
// flagged, resized and removed, again, in check mode, and parted's own
// errors) against disk images on a fresh debian-sys host with tender's
// parted, and compares every result, and the partition tables the shell
// tasks print between them, with what community.general's returned on
// an identical host (testdata/parted/ansible.json, recorded by gen.sh).
func TestPartedFleet(t *testing.T) {
	dir := "../testdata/parted"
	env := modtest.InitHost(t, "sys", dir, "setup.sh")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", map[string][]string{})
}
