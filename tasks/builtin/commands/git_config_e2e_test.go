//go:build e2e

package commands

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestGitConfigFleet runs testdata/git_config/tasks.yml (reading, setting
// and unsetting settings of the system, global, local and file scopes,
// listing them, includes, a key with several values, check mode, diffs,
// paths with ~, git's own errors and bad arguments) with tender's
// git_config on a fresh debian-sys host after setup.sh, and compares
// every result, and what the shell tasks between them show of the
// configuration files, with what community.general's module returned on
// an identical host (testdata/git_config/ansible.json, recorded by
// gen.sh).
func TestGitConfigFleet(t *testing.T) {
	dir := "../testdata/git_config"
	env := modtest.InitHost(t, "sys", dir, "setup.sh")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", nil)
}
