//go:build e2e

package system

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestAtFleet runs testdata/at/tasks.yml (jobs of a command and of a
// script file queued in minutes, hours, days and weeks, unique,
// removed by their text, multi-line commands, at's own failures, check
// mode, bad arguments) with tender's at on a fresh debian-sys host after
// setup.sh, and compares every result, and what the shell tasks between
// them show of at's queue, with what ansible-core returned on an
// identical host (testdata/at/ansible.json, recorded by gen.sh).
func TestAtFleet(t *testing.T) {
	dir := "../testdata/at"
	env := modtest.InitHost(t, "sys", dir, "setup.sh")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", map[string][]string{
		// The temporary file a command is written to has a random name
		// (/tmp/atXXXXXXXX on both).
		"a_cmd":              {"script_file"},
		"a_cmd_dup":          {"script_file"},
		"a_cmd_unique_other": {"script_file"},
		"a_multiline":        {"script_file"},
	})
}
