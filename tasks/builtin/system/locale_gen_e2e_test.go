//go:build e2e

package system

import (
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestLocaleGenFleet runs testdata/locale_gen/tasks.yml (locales made
// present and absent through /etc/locale.gen, names as locale.gen spells
// them against locale -a's spellings, check mode, idempotence, unknown
// names, locale-gen failing and missing, then the Ubuntu mode the module
// takes when /var/lib/locales/supported.d exists: SUPPORTED, `locale-gen
// NAME`, supported.d/local rewritten or missing or malformed, SUPPORTED
// missing; then neither file, and bad arguments) with tender's locale_gen
// on a fresh debian-sys host, and compares every result, and what the
// shell tasks between them show of the host, with what ansible-core
// returned on an identical host (testdata/locale_gen/ansible.json,
// recorded by gen.sh).
func TestLocaleGenFleet(t *testing.T) {
	dir := "../testdata/locale_gen"
	env := modtest.InitHost(t, "sys", dir, "")
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", map[string][]string{
		// The module dies of an exception, whose traceback Ansible's ssh
		// connection puts in module_stdout; tender gives the exception's
		// line in module_stderr.
		"lg_u_absent_nofile":     {"module_stdout"},
		"lg_u_absent_bad_local":  {"module_stdout"},
		"lg_u_supported_missing": {"module_stdout"},
	})
}
