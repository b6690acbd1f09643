//go:build e2e

package packages

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestRpmKeyFleet runs testdata/rpm_key/tasks.yml (keys by path, by key
// id and by URL from a web server on the host's loopback, check mode,
// fingerprints that match and that do not, a subkey's id, removal, a
// file that is no key, fetch failures) with tender's rpm_key on a fresh
// rh host of the fleet (Debian's rpm 4.18 and gpg) after setup.sh, and
// compares every result, and the rpm database's keys the shell tasks
// list, with what ansible-core returned on an identical host
// (testdata/rpm_key/ansible.json, recorded by gen.sh).
func TestRpmKeyFleet(t *testing.T) {
	dir := "../testdata/rpm_key"
	env := modtest.InitHost(t, "rh", dir, "setup.sh")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", map[string][]string{
		// Python's urllib words a refused connection its own way; tender
		// reports its dialer's error in the same message.
		"rk_url_refused": {"msg"},
	})
}
