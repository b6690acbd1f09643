//go:build e2e

package system

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestTimezoneFleet runs testdata/timezone/tasks.yml (zones set, again,
// in check and diff modes, unknown zones, bad arguments, /etc/localtime
// as another link, a copy, a broken link, no /etc/timezone, several
// matching lines, the hardware clock with /etc/default/rcS and
// /etc/adjtime, hwclock's own failure, a timedatectl that does not run
// and one that does) with tender's timezone on a fresh debian-sys host
// and compares every result, and what the shell tasks between them show
// of the host, with what community.general's returned on an identical
// host (testdata/timezone/ansible.json, recorded by gen.sh).
func TestTimezoneFleet(t *testing.T) {
	dir := "../testdata/timezone"
	env := modtest.InitHost(t, "sys", dir, "")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", map[string][]string{})
}
