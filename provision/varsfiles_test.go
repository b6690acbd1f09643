package provision_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVarsFilesMarkedName: a vars_files entry read for each host may be
// named with a host's or a lookup's data (marked unsafe) inside the
// playbook's tree, but such a name that leaves it (an absolute path, a
// "..") ends the run instead of reading a controller file elsewhere; the
// same name from the inventory is read.
func TestVarsFilesMarkedName(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "outside.yml"), []byte("secret: leaked\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pb := `
- hosts: all
  gather_facts: false
  vars_files:
    - "{{ where }}/outside.yml"
  tasks:
    - debug: msg="{{ secret | default('none') }}"
`
	out, _, err := play(t, "a where="+dir+"\n", pb, nil)
	if err != nil || !strings.Contains(out, `"msg": "leaked"`) {
		t.Fatalf("a name from the inventory: %v\n%s", err, out)
	}
	// The same name marked unsafe (as a host's facts are).
	out, _, err = play(t, "all:\n  hosts:\n    a:\n      where: !unsafe "+dir+"\n", pb, nil)
	if err == nil || !strings.Contains(err.Error(), "marked unsafe") || strings.Contains(out, "leaked") {
		t.Fatalf("a marked name: %v\n%s", err, out)
	}
}
