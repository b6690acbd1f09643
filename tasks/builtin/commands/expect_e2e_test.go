//go:build e2e

package commands

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestExpectFidelity runs testdata/expect/tasks.yml (answers by string,
// by list and repeated, echo, a password read with echo off, timeouts
// and a prompt nobody answers, a list of answers run out, the terminal's
// size, stderr and trailing blank lines, pexpect's splitting of the
// command line, chdir, creates, removes, check mode, a command that is
// not found, bad arguments) with tender's expect on a fresh fleet host
// and compares every result with what ansible-core 2.14 (with Debian's
// pexpect) returned on an identical host (testdata/expect/ansible.json,
// recorded by gen.sh). Left out: the traceback of a chdir that fails
// (module_stdout), whose file names and line numbers are Ansible's own.
func TestExpectFidelity(t *testing.T) {
	dir := "../testdata/expect"
	env := modtest.InitHost(t, "sys", dir, "")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", map[string][]string{
		"exp_chdir_missing": {"module_stdout"},
	})
}
