//go:build e2e

package commands

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestMakeFleet runs testdata/make/tasks.yml (the default target, named
// targets up to date or not, params, file, jobs, make's path, phony
// targets, check mode, failing targets, missing rules and makefiles, a
// missing chdir, make not found, bad arguments) with tender's make on a
// fresh debian-sys host after setup.sh, and compares every result, and
// what the shell tasks between them show of the project's files, with
// what community.general's module returned on an identical host
// (testdata/make/ansible.json, recorded by gen.sh).
func TestMakeFleet(t *testing.T) {
	dir := "../testdata/make"
	env := modtest.InitHost(t, "sys", dir, "setup.sh")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", nil)
}
