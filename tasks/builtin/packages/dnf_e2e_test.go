//go:build e2e

package packages

import (
	"encoding/json"
	"sort"
	"testing"
)

// TestDnfFidelity runs testdata/dnf/tasks.yml with tender's dnf and yum
// on a fresh rh host (the harness: apt_repository_e2e_test.go; the host:
// docs/TESTING.md) and compares every result, and the rpm databases the
// dump_ tasks show, with ansible-core's: list (installed, available,
// updates, repos, a spec, with excludes and a disabled repository, beside
// a name), exclude (not installed and installed), conf_file (missing, one
// excluding a package) and disable_excludes, security and bugfix (through
// yum, whose backend probe sets the pkg_mgr fact), releasever and
// its warning, install_weak_deps, download_only with and without
// download_dir, update_only, nobest, a name-version-release older than
// what is installed with and without allow_downgrade, a dependency
// problem with and without skip_broken, a conflict with and without
// allowerasing, cacheonly, sslverify, validate_certs, plugins,
// install_repoquery, lock_timeout, installroot, name=* with
// state=latest (every installed package upgraded). List results are
// compared in a fixed order (Ansible's is the order of dnf's package
// sack). Left out, each for its reason below: the results of check mode,
// which name the packages where Ansible's name the transaction, and
// whether download_only changed anything (DIFFERENCES.md).
func TestDnfFidelity(t *testing.T) {
	runDebCase(t, "dnf", map[string][]string{
		"dnf_downgrade_check": {"results"},
		"dnf_star_check":      {"results"},
		// download_only is changed when something was downloaded or
		// copied to download_dir (Ansible's always is): the same files
		// again, or a local repository's without download_dir, change
		// nothing.
		"dnf_download_again": {"changed"},
		"dnf_download_nodir": {"changed"},
		// The harness runs each module alone, so the pkg_mgr fact the
		// first yum task found is not there for the next, which probes
		// again; in a play it is (and Ansible's second yum has it).
		"dnf_repoquery_lock": {"ansible_facts"},
	}, func(task string, m map[string]any) {
		l, ok := m["results"].([]any)
		if !ok || len(l) == 0 {
			return
		}
		if _, ok := l[0].(map[string]any); !ok {
			return
		}
		sort.Slice(l, func(i, j int) bool {
			a, _ := json.Marshal(l[i])
			b, _ := json.Marshal(l[j])
			return string(a) < string(b)
		})
	})
}
