package provision_test

import (
	"testing"
)

// TestSetupResultHoldsFacts: a setup task's result holds the facts as
// setup returns them (ansible_<name>; module_setup under its own name),
// which register keeps, as Ansible's split target reads them; a delegated
// setup's facts go to the task's host unless delegate_facts says the
// delegate's.
func TestSetupResultHoldsFacts(t *testing.T) {
	out, recap, err := play(t, "a ansible_connection=local\nlocalhost ansible_connection=local\n", `
- hosts: a
  gather_facts: false
  tasks:
    - setup:
      register: r
    - setup:
      delegate_to: localhost
      register: d
    - setup:
      delegate_to: localhost
      delegate_facts: true
    - assert:
        that:
          - r.ansible_facts.ansible_system == 'Linux'
          - r.ansible_facts.ansible_user_id == ansible_user_id
          - r.ansible_facts.module_setup
          - "'system' not in r.ansible_facts"
          - d.ansible_facts.ansible_hostname == ansible_hostname
          - r is not changed and r is not failed
          - hostvars.localhost.ansible_facts.system == 'Linux'
`, nil)
	if err != nil || recap.Stats["a"].Failed != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
}
