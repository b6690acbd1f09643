package provision_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigLookupInPlayTemplates: what a play renders outside any task
// (its vars_files) reaches the config lookup too, with the run's
// configuration (here the documented defaults: COLOR_OK is green).
func TestConfigLookupInPlayTemplates(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "green.yml"), []byte("color: from-file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, recap, err := play(t, "h1 ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  vars_files: ["`+dir+`/{{ lookup('config', 'COLOR_OK') }}.yml"]
  tasks:
    - debug: var=color
`, nil)
	if err != nil || recap.Failed() || !strings.Contains(out, `"color": "from-file"`) {
		t.Fatalf("err %v\n%s", err, out)
	}
}
