//go:build e2e

package packages

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestDpkgSelectionsFidelity runs testdata/dpkg_selections/tasks.yml with
// tender's dpkg_selections on a fresh fleet host (hold, install back, a
// removed package's selection set to purge, check mode, bad arguments)
// and compares every result, and dpkg's selections after them, with
// ansible-core's (the harness: apt_repository_e2e_test.go). Left out:
// ds_unknown, a name dpkg does not know, which ansible-core 2.14 reports
// changed on every run while dpkg ignores the line, and tender fails as
// ansible-core does since 2.16 (dpkg_selections.go); the test checks
// that failure instead.
func TestDpkgSelectionsFidelity(t *testing.T) {
	id := runDebCase(t, "dpkg_selections", map[string][]string{"ds_unknown": {"*"}}, nil)
	env, _ := modtest.TestEnv(t, t.TempDir(), nil)
	env.Conn = modtest.DockerConn(t, id)
	res, err := dpkgSelectionsModule{}.Run(t.Context(), env, map[string]any{"name": "no-such-package", "selection": "hold"})
	if err != nil || !res.Failed || res.Changed || res.Msg != "Failed to find package 'no-such-package' to perform selection 'hold'." {
		t.Errorf("a package dpkg does not know: %v %+v", err, res)
	}
	if out := debExec(t, id, "dpkg --get-selections no-such-package 2>&1"); out != "dpkg: no packages found matching no-such-package\n" {
		t.Errorf("dpkg's selections changed: %q", out)
	}
}
