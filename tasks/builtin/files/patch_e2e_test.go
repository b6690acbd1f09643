//go:build e2e

package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestPatchFleet runs testdata/patch/tasks.yml (patches from the
// controller and from the host, one file by dest and several by basedir
// and strip, reverting, backups, CRLF patches with and without binary,
// ignore_whitespace, check mode, idempotence, bad arguments, the
// module's own failures and patch's) with tender's patch on a fresh
// debian-sys host after setup.sh, and compares every result, and the
// files the shell tasks between them show, with what ansible-core
// returned on an identical host (testdata/patch/ansible.json, recorded
// by gen.sh). The tasks name controller patches /tmp/tender-patch-files/X,
// where gen.sh copies files/ for ansible-playbook; here those names
// resolve in files/.
func TestPatchFleet(t *testing.T) {
	dir := "../testdata/patch"
	env := modtest.InitHost(t, "sys", dir, "setup.sh")
	files, _ := filepath.Abs(filepath.Join(dir, "files"))
	find := env.FindFile
	env.FindFile = func(kind, name string) (string, error) {
		if rest, ok := strings.CutPrefix(name, "/tmp/tender-patch-files/"); ok {
			p := filepath.Join(files, rest)
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
		}
		return find(kind, name)
	}
	modtest.CompareFleet(t, env, dir, "tasks.yml", "ansible.json", map[string][]string{
		// Ansible lists the directories of its controller search path
		// (a temporary directory when recorded); tender's test
		// environment words it its own way.
		"p_missing_src": {"msg"},
	})
}
