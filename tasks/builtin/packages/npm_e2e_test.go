//go:build e2e

package packages

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestNpmFleet runs testdata/npm/tasks.yml (argument errors; installs
// in a project, by version, to the latest version, with dependencies,
// into a directory made for it, globally with bin links and without;
// removals; scripts ignored and run; production and full installs of a
// project; npm ci; other executables, registries and npm's own errors;
// check mode) with tender's npm on a fresh host with Debian's nodejs and
// npm and a registry of its own (setup.sh), and compares every result,
// and the project directories between them, with what community.general
// 6.6.2's npm returned on an identical host (testdata/npm/ansible.json,
// recorded by gen.sh).
func TestNpmFleet(t *testing.T) {
	dir := "../testdata/npm"
	env := modtest.InitHost(t, "node", dir, "setup.sh")
	// npm's errors end naming its log file, a file named by the time
	npmErr := []string{"msg", "stderr", "stderr_lines"}
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", map[string][]string{
		"npm_unknown":         npmErr,
		"npm_unknown_version": npmErr,
		"npm_registry_down":   npmErr,
	})
}
