package provision_test

import (
	"strings"
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

// TestArgumentsFromOneTemplate: a task's arguments given as one template
// are the dict it renders to, under the task's other arguments, with
// Ansible's warning; anything but a dict fails the task.
func TestArgumentsFromOneTemplate(t *testing.T) {
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  vars:
    host_data: {hostname: newhost, groups: made, color: blue}
    dbg: {msg: from a dict}
    dbg_list: [1, a]
  tasks:
    - add_host: "{{ host_data }}"
    - debug: "{{ dbg }}"
      register: d
    - debug: "{{ dbg_list }}"
      register: bad
      ignore_errors: true
    - assert:
        that:
          - hostvars.newhost.color == 'blue'
          - "'newhost' in groups.made"
          - d.msg == 'from a dict'
          - bad is failed
          - "bad.msg == \"invalid or malformed argument: '[1, 'a']'\""
`, nil)
	if err != nil || recap.Stats["a"].Failed != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "[WARNING]: Using a variable for a task's 'args' is unsafe in some situations") {
		t.Errorf("no warning in:\n%s", out)
	}
}
