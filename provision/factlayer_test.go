package provision_test

import "testing"

// TestFactsLayerFollowsChanges: the facts' variables are made again when
// the facts change (setup, a cacheable set_fact, clear_facts) and only
// then; a register or a plain set_fact in between leaves them as they
// were and still shows its own variable.
func TestFactsLayerFollowsChanges(t *testing.T) {
	out, recap, err := play(t, "h1 ansible_connection=local\nh2 ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - command: "true"
      register: r1
    - assert: {that: ["ansible_facts == {}", "r1 is succeeded"]}
    - set_fact: {one: 1, cacheable: true}
    - assert: {that: ["ansible_facts.one == 1", "one == 1"]}
    - command: "true"
      register: r2
    - set_fact: {two: 2}
    - assert: {that: ["ansible_facts.one == 1", "'two' not in ansible_facts", "two == 2", "r2 is succeeded"]}
    - setup: {gather_subset: ['!all'], filter: ansible_system}
    - assert: {that: ["ansible_facts.system == 'Linux'", "ansible_system == 'Linux'", "ansible_facts.one == 1"]}
    - command: "true"
      register: r3
    - assert: {that: ["ansible_system == 'Linux'", "hostvars[inventory_hostname].ansible_system == 'Linux'"]}
    - meta: clear_facts
    - assert: {that: ["ansible_facts == {}", "ansible_system is not defined", "r3 is succeeded"]}
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"h1", "h2"} {
		if s := recap.Stats[h]; s.Failed != 0 || s.OK != 12 {
			t.Errorf("%s: %+v\n%s", h, *s, out)
		}
	}
}
