//go:build e2e

package packages

import "testing"

// TestAptUpgradeFidelity runs testdata/apt_upgrade/tasks.yml with
// tender's apt on a fresh fleet host (the harness:
// apt_repository_e2e_test.go): upgrade in every mode (dist in check mode,
// an upgrade from the fleet's v2 repository, then nothing left to
// upgrade), name=* with state=latest, upgrade beside a name; policy_rc_d
// around an install and a removal whose maintainer scripts log what
// /usr/sbin/policy-rc.d answers (none before, the code while apt-get
// runs, an operator's own file put back after); autoclean deleting an
// archive no repository has (check mode first); clean alone, with a
// package, with update_cache. Every result, and what the shell tasks
// show of the host, must be ansible-core's; cache_update_time becomes
// TIME on both sides.
func TestAptUpgradeFidelity(t *testing.T) {
	runDebCase(t, "apt_upgrade", nil, func(_ string, m map[string]any) {
		if _, ok := m["cache_update_time"]; ok {
			m["cache_update_time"] = "TIME"
		}
	})
}
