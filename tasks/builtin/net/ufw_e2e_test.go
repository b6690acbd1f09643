//go:build e2e

package net

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestUfwFidelity runs testdata/ufw/tasks.yml (states enabled, disabled,
// reloaded and reset, default policies of every direction, logging
// levels, rules of every action with directions, interfaces, routes,
// ports, protocols, applications, comments, inserts absolute and
// relative, deletes, check mode, ufw's own errors and bad arguments)
// with tender's ufw on a fresh fleet host with NET_ADMIN, and compares
// every result, and ufw's status and rules between them, with what
// community.general 6.6.2's ufw returned on an identical host
// (testdata/ufw/ansible.json, recorded by gen.sh).
func TestUfwFidelity(t *testing.T) {
	dir := "../testdata/ufw"
	env := modtest.InitHost(t, "netadmin", dir, "")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", map[string][]string{
		// a comment holding a quote: the Python module dies with a
		// traceback splitting its command line, tender fails saying so
		"ufw_comment_quote": {"msg", "exception", "module_stdout", "module_stderr", "rc", "commands"},
	})
}
