//go:build e2e

package files

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// archiveSizeReason: a compressed archive (gzip, bzip2, xz, zip) written
// by the host's tools is not byte for byte the one Python's libraries
// write (headers, compression), so dest's size differs; its members,
// their names and contents are the same, as the shell tasks show.
var archiveSizeReason = []string{"size"}

// TestArchiveFleet runs testdata/archive/tasks.yml (directories, globs,
// exclude_path, exclusion_patterns for tar and zip, every format, the
// single-file compression and force_archive, missing sources, remove,
// dest's attributes, check mode, idempotence after a source's mtime or
// content changes, bad arguments and the module's own failures and
// crashes) with tender's archive on a fresh debian-sys host after
// setup.sh, and compares every result, and what the shell tasks between
// them show of the archives and sources, with what ansible-core
// returned on an identical host (testdata/archive/ansible.json,
// recorded by gen.sh).
func TestArchiveFleet(t *testing.T) {
	dir := "../testdata/archive"
	env := modtest.InitHost(t, "sys", dir, "setup.sh")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", map[string][]string{
		"a_tgz":                 archiveSizeReason,
		"a_tgz_again":           archiveSizeReason,
		"a_tgz_again_check":     archiveSizeReason,
		"a_tgz_touched":         archiveSizeReason,
		"a_zip":                 archiveSizeReason,
		"a_zip_again":           archiveSizeReason,
		"a_zip_touched":         archiveSizeReason,
		"a_zip_edited":          archiveSizeReason,
		"a_bz2_glob":            archiveSizeReason,
		"a_bz2_glob_again":      archiveSizeReason,
		"a_xz_incomplete":       archiveSizeReason,
		"a_xz_incomplete_again": archiveSizeReason,
		"a_zip_single":          archiveSizeReason,
		"a_force":               archiveSizeReason,
		"a_remove_tree":         archiveSizeReason,
		"a_dest_only":           archiveSizeReason,
		// Ansible lists the valid booleans from a Python set, whose
		// order changes from run to run; tender's order is fixed.
		"a_bad_bool": {"msg"},
		// An exception the module does not catch: Ansible's traceback
		// names its own temporary files and line numbers; tender's
		// gives the same exception, type and message.
		"a_dest_dir":      {"module_stdout"},
		"a_dest_dir_zip":  {"module_stdout"},
		"a_no_parent_tar": {"module_stdout"},
	})
}
