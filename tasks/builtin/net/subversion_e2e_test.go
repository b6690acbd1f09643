//go:build e2e

package net

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestSubversionFleet runs testdata/subversion/tasks.yml (checkouts,
// updates to HEAD and to a revision, local changes with and without
// force, switch, export, in_place, a user and password, check mode,
// failures and bad arguments) with tender's subversion on a fresh
// debian-sys host after setup.sh, and compares every result, and what
// the shell tasks between them show of the working copies, with what
// ansible-core returned on an identical host
// (testdata/subversion/ansible.json, recorded by gen.sh). Where tender
// differs on purpose (subversionScript), the task is listed below with
// the reason.
func TestSubversionFleet(t *testing.T) {
	dir := "../testdata/subversion"
	env := modtest.InitHost(t, "sys", dir, "setup.sh")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", map[string][]string{
		// An export with force over an export of the same revision:
		// ansible-core's exports again and reports a change, on every
		// run; tender's finds every file the same and reports none
		// (dump_export shows the same files after it).
		"s_export_force": {"changed"},
		// checkout=no in check mode for a dest that is not there:
		// ansible-core's predicts a change that its run does not make
		// (s_no_checkout); tender's predicts what the run does.
		"s_no_checkout_check": {"changed"},
		// in_place in check mode: ansible-core's checks out (the dump
		// shows a working copy), tender's changes nothing; both report
		// the change, tender's without the revisions it did not read.
		"s_in_place_check":    {"before", "after"},
		"dump_in_place_check": {"stdout", "stdout_lines"},
	})
}
