//go:build e2e

package packages

import "testing"

// TestPackageFactsFidelity runs testdata/package_facts/tasks.yml with
// tender's package_facts on a fresh fleet host (packages from a
// repository without a Release file and from one whose Release names an
// Origin, a foreign-architecture package, a removed one whose
// configuration files remain) and compares every result, the whole list
// of packages included, with ansible-core's (the harness:
// apt_repository_e2e_test.go). Nothing is left out.
func TestPackageFactsFidelity(t *testing.T) {
	runDebCase(t, "package_facts", nil, nil)
}

// TestPackageFactsRedHatFidelity does the same on the fleet's rh host
// (testdata/package_facts/rh: rpm's database with two packages and an
// imported key, a gpg-pubkey without epoch or arch). Left out: the
// warnings of manager auto, which Ansible prints when its (random) order
// tries apt before rpm on this host without python-apt; tender tries
// rpm first on a RedHat-family host and needs no python-apt.
func TestPackageFactsRedHatFidelity(t *testing.T) {
	runDebCase(t, "package_facts/rh", map[string][]string{"pf_auto": {"warnings"}}, nil)
}
