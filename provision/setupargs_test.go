package provision_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision"
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

// TestGatherDefaults: the run's gathering defaults (ansible.cfg's
// gather_subset and fact_path) reach a play's implicit fact gathering
// when the play has no keyword of its own, yield to the play's keywords,
// and are not given to a setup task, as in Ansible.
func TestGatherDefaults(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(dir, "mine.fact"), []byte(`{"k": "v"}`), 0o644)
	os.WriteFile(filepath.Join(other, "theirs.fact"), []byte(`{"k": "w"}`), 0o644)
	out, recap, err := play(t, "h1 ansible_connection=local\n", `
- hosts: all
  tasks:
    - assert:
        that:
          - ansible_facts.gather_subset == ['!all']
          - ansible_mounts is not defined
          - ansible_local.mine.k == 'v'
    - setup:
      register: own
    - assert:
        that:
          - own.ansible_facts.gather_subset == ['all']
          - own.ansible_facts.ansible_local.mine is not defined
- hosts: all
  gather_subset: ['!all', 'mounts']
  fact_path: `+other+`
  tasks:
    - assert:
        that:
          - ansible_facts.gather_subset == ['!all', 'mounts']
          - ansible_local.theirs.k == 'w'
          - ansible_local.mine is not defined
`, func(r *provision.Runner) {
		r.Defaults.GatherSubset = []any{"!all"}
		r.Defaults.FactPath = dir
		timeout := 5
		r.Defaults.GatherTimeout = &timeout
	})
	if err != nil {
		t.Fatal(err)
	}
	if s := recap.Stats["h1"]; s.Failed != 0 {
		t.Errorf("%+v\n%s", *s, out)
	}
}
