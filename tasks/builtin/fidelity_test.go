package builtin

import (
	"path/filepath"
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestFidelity runs testdata/tasks.yml with tender's modules on a fresh
// temporary directory and compares every result with what ansible-core
// 2.14 registered for the same task (testdata/ansible.json, recorded by
// testdata/gen.sh); then the other task lists of the table below the
// same way, each against its own recording (tasks_diff.yml in --diff mode;
// tasks_files.yml, tasks_ini.yml, tasks_find.yml, tasks_assemble.yml and
// tasks_data.yml for the file-editing and data modules, system_local.yml
// for the system modules that need no root, their *_diff.yml in --diff
// mode). A result is compared as register: stores it: the
// module's Data plus changed, failed, skipped (when true), msg (when not
// empty) and warnings (when any), as the engine adds them.
//
// Normalization, applied to both sides, and nothing else:
//   - paths: the temporary root becomes ROOT, the controller's files
//     directory FILES and its templates directory TEMPLATES; a copy "src"
//     naming a staging file (Ansible's ~/.ansible/tmp/..., tender's
//     .tender-XXXXXXXX beside the dest)
//     becomes TMPSRC, and so does the after_header of a --diff entry
//     naming one;
//   - a symlink's size (also in find's files), which is the length of its
//     target path, becomes LINKLEN (the roots differ in length);
//   - times: start, end, delta (when not null), atime, mtime, ctime,
//     wait_for's elapsed and the date in a backup_file (or lineinfile's
//     backup) name become TIME;
//   - inode numbers and devices: inode, dev, and lsattr's version become
//     INODE;
//   - keys that only Python has: invocation (the module's echoed
//     arguments), exception and module_stderr (Python tracebacks).
//
// A module that returns an error (bad arguments) is compared as a failed
// result whose msg is the error's text without tender's "Did you mean"
// hint.
//
// With TENDER_TEST_BUSYBOX=1 every script runs under busybox sh with only
// busybox's applets on PATH (the tools an Alpine host has); stat's mime
// and lsattr keys are then left out, as busybox has no file or lsattr.
//
// Differences that remain are listed in knownDiffs with the reason; any
// other difference fails the test.
func TestFidelity(t *testing.T) {
	t.Parallel()
	for _, c := range fidelityFiles {
		t.Run(c.tasks, func(t *testing.T) {
			t.Parallel()
			fidelity(t, c.tasks, c.recorded, c.diff, false)
		})
	}
}

// TestFidelityMarked runs TestFidelity's task lists with every argument
// marked as a host's data is (yaml11.Unsafe), but those a module
// evaluates (assert's that, debug's var): a module must do with marked
// data exactly what it does with plain, so the results are compared with
// the same recordings.
func TestFidelityMarked(t *testing.T) {
	t.Parallel()
	for _, c := range fidelityFiles {
		t.Run(c.tasks, func(t *testing.T) {
			t.Parallel()
			fidelity(t, c.tasks, c.recorded, c.diff, true)
		})
	}
}

// fidelityFiles are the task lists TestFidelity compares, each with its
// recording, in --diff mode when diff is set.
var fidelityFiles = []struct {
	tasks, recorded string
	diff            bool
}{
	{"tasks.yml", "ansible.json", false},
	{"tasks_diff.yml", "ansible_diff.json", true},
	{"tasks_files.yml", "ansible_files.json", false},
	{"tasks_ini.yml", "ansible_ini.json", false},
	{"tasks_ini_diff.yml", "ansible_ini_diff.json", true},
	{"tasks_data.yml", "ansible_data.json", false},
	{"tasks_data_diff.yml", "ansible_data_diff.json", true},
	{"tasks_find.yml", "ansible_find.json", false},
	{"tasks_assemble.yml", "ansible_assemble.json", false},
	{"system_local.yml", "ansible_system_local.json", false},
	{"system_local_diff.yml", "ansible_system_local_diff.json", true},
}

// fidelity runs one task file, with --diff when diff is set, against its
// recording, on this machine in a fresh temporary directory.
func fidelity(t *testing.T, taskFile, recorded string, diff, marked bool) {
	files, _ := filepath.Abs("testdata/files")
	env, _ := modtest.TestEnv(t, files, nil)
	env.Diff = diff
	if marked {
		modtest.CompareRecordedMarked(t, env, t.TempDir(), files, taskFile, recorded)
		return
	}
	modtest.CompareRecorded(t, env, t.TempDir(), files, taskFile, recorded)
}
