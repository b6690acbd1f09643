//go:build e2e

package net

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestFirewalldFidelity runs testdata/firewalld/tasks.yml (argument
// errors; services, ports and ranges, protocols, ICMP blocks and their
// inversion, masquerade, rich rules, port forwards, sources, interfaces
// moved between zones, targets and zones themselves, each permanent,
// immediate and both, with timeouts, check mode and firewalld's own
// errors; then the same with the daemon stopped, where only the
// permanent configuration changes) with tender's firewalld on a fresh
// systemd host running firewalld, and compares every result, and
// firewalld's settings between them, with what ansible.posix 1.5.4's
// module returned on an identical host (testdata/firewalld/ansible.json,
// recorded by gen.sh).
func TestFirewalldFidelity(t *testing.T) {
	dir := "../testdata/firewalld"
	env := modtest.InitHost(t, "firewalld", dir, "")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", map[string][]string{
		// a port with two slashes: the Python module dies unpacking it
		// (a traceback), tender fails saying what is wrong
		"fw_port_two_slashes": {"msg", "exception", "module_stdout", "module_stderr", "rc"},
		// a port number out of range: firewall-cmd checks it before the
		// daemon does, in fewer words
		"fw_port_bad_number": {"msg"},
		// the module's offline path writes a zone through firewalld's
		// old settings tuple, which drops the zone's intra-zone
		// forwarding (<forward/>); firewall-offline-cmd, and so tender,
		// keep it
		"fw_offline_forward": {"stdout", "stdout_lines"},
		"fw_start_forward":   {"stdout", "stdout_lines"},
	})
}
