//go:build e2e

package packages

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestYumRepositoryFleet runs testdata/yum_repository/tasks.yml (the
// errors Ansible reports, check mode, adding a repository with lists,
// booleans, aliases and a password, a second one in the same file,
// changing one, mode alone, a hand-written file with comments, DEFAULT
// options and continuation lines, removing repositories down to the
// file's removal, an absolute file) with tender's yum_repository on a
// fresh rh host of the fleet after setup.sh, and compares every result,
// and the files the shell tasks between them print (and what dnf lists),
// with what ansible-core returned on an identical host
// (testdata/yum_repository/ansible.json, recorded by gen.sh).
func TestYumRepositoryFleet(t *testing.T) {
	dir := "../testdata/yum_repository"
	env := modtest.InitHost(t, "rh", dir, "setup.sh")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", map[string][]string{
		// Ansible's writes the file, then fails to set the attributes
		// (chattr is not supported on the container's overlay file
		// system); tender's refuses attributes before it writes anything.
		"yr_attributes": {"changed", "failed", "msg", "details", "diff", "repo", "state", "gid", "uid", "group", "owner", "mode", "path", "size", "secontext"},
	})
}
