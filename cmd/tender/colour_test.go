package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestForceColour: ANSIBLE_FORCE_COLOR colours output that is not a
// terminal, and wins over ANSIBLE_NOCOLOR, as Ansible's display decides;
// without it such output is plain. It is not warned about as a setting
// tender does not apply.
func TestForceColour(t *testing.T) {
	dir := t.TempDir()
	pb := filepath.Join(dir, "pb.yml")
	os.WriteFile(pb, []byte("- hosts: localhost\n  gather_facts: false\n  tasks:\n    - debug: msg=a\n"), 0o644)
	t.Setenv("ANSIBLE_NOCOLOR", "1")
	t.Setenv("ANSIBLE_FORCE_COLOR", "1")
	code, out, errOut := runCLI(t, "play", pb)
	if code != 0 || !strings.Contains(out, "\x1b[0;32mok: [localhost] => {\x1b[0m\n") || strings.Contains(errOut, "does not apply") {
		t.Errorf("forced: exit %d:\n%q\n%s", code, out, errOut)
	}
	t.Setenv("ANSIBLE_FORCE_COLOR", "0")
	if _, out, _ := runCLI(t, "play", pb); strings.Contains(out, "\x1b[") {
		t.Errorf("not forced, not a terminal: %q", out)
	}
}
