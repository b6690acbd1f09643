//go:build e2e

package system

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestFilesystemFleet runs testdata/filesystem/tasks.yml (ext2/3/4, xfs,
// vfat and swap made on disk images, their idempotence, another type
// refused without force and made with it, resizefs after the image
// grew, check mode, wipefs, the aliases, a ~ path, file systems whose
// programs the host lacks, mkfs's own error, missing arguments) with
// tender's filesystem on a fresh debian-sys host after setup.sh, and
// compares every result, and what blkid and tune2fs show between them,
// with what community.general 6.6.2 returned on an identical host
// (testdata/filesystem/ansible.json, recorded by gen.sh).
func TestFilesystemFleet(t *testing.T) {
	dir := "../testdata/filesystem"
	env := modtest.InitHost(t, "sys", dir, "setup.sh")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", map[string][]string{})
}
