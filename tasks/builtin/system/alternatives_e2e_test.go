//go:build e2e

package system

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestAlternativesFleet runs testdata/alternatives/tasks.yml (a new
// group installed and selected, more alternatives present, selected,
// back to auto mode, priorities, subcommands given by either name, kept,
// changed and dropped, absent, an existing group, check and diff modes,
// bad arguments and update-alternatives' own refusals) with tender's
// alternatives on a fresh debian-sys host after setup.sh and compares
// every result, and what the shell tasks between them show of the
// groups, with what community.general's returned on an identical host
// (testdata/alternatives/ansible.json, recorded by gen.sh).
func TestAlternativesFleet(t *testing.T) {
	dir := "../testdata/alternatives"
	env := modtest.InitHost(t, "sys", dir, "setup.sh")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", map[string][]string{
		// A subcommand that is no dict: tender's shared argument check
		// words the failed element conversion its own way (it names
		// the option and the list), with the same reason at the end.
		"alt_sub_not_dict": {"msg"},
	})
}
