package provision_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSetupArguments: setup's gather_subset, filter and fact_path, and a
// play's gather_subset and fact_path keywords, are honoured as Ansible's
// setup has them; a filtered or partial setup leaves the other facts the
// host had; a bad subset or parameter fails with Ansible's message.
func TestSetupArguments(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mine.fact"), []byte(`{"k": "v"}`), 0o644)
	out, recap, err := play(t, "h1 ansible_connection=local\n", `
- hosts: all
  gather_facts: true
  gather_subset: ['!all']
  fact_path: `+dir+`
  tasks:
    - assert:
        that:
          - ansible_distribution is defined
          - ansible_mounts is not defined
          - ansible_facts.gather_subset == ['!all']
          - ansible_local.mine.k == 'v'
    - setup: {filter: ansible_os_family}
      register: s
    - assert:
        that:
          - s.ansible_facts.keys() | list == ['ansible_os_family']
          - ansible_distribution is defined
          - ansible_local.mine.k == 'v'
    - setup: {gather_subset: [bogus]}
      register: bad
      ignore_errors: true
    - setup: {nope: 1}
      register: unknown
      ignore_errors: true
    - assert:
        that:
          - bad.msg is search("^Bad subset 'bogus' given to Ansible")
          - unknown.msg is search("^Unsupported parameters for [(]setup[)] module. nope")
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := recap.Stats["h1"]; s.Failed != 0 || s.Ignored != 2 {
		t.Errorf("%+v\n%s", *s, out)
	}
	if !strings.Contains(out, "Gathering Facts") {
		t.Errorf("no fact gathering:\n%s", out)
	}
}
