//go:build e2e

package services

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestServiceFactsFleet runs service_facts on fresh SysV, systemd and
// OpenRC hosts of the fleet (each after its setup_KIND.sh) and compares
// the services it returns with what ansible-core's service_facts
// returned on an identical host (testdata/service_facts/ansible_KIND.json,
// recorded by gen.sh): every service, its state, status, runlevels and
// source, and the SysV services a systemd host also lists.
func TestServiceFactsFleet(t *testing.T) {
	for _, kind := range []string{"sys", "systemd", "openrc"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			dir := "../testdata/service_facts"
			env := modtest.InitHost(t, kind, dir, "setup_"+kind+".sh")
			modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible_"+kind+".json", nil)
		})
	}
}
