package provision_test

import (
	"strings"
	"testing"
)

// TestModuleTemplateFromHostRefused: a module given as a template runs
// the module it names, but a name that came from a host (marked unsafe)
// is refused, so a hostile host cannot choose what runs (Ansible would
// run it); a module name a playbook gives stays usable.
func TestModuleTemplateFromHostRefused(t *testing.T) {
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  vars:
    mine: debug
  tasks:
    - command: echo debug
      register: said
    - action: "{{ said.stdout }} msg=chosen"
      register: r
      ignore_errors: true
    - assert:
        that:
          - r is failed
          - "'marked unsafe' in r.msg"
    - action: "{{ mine }} msg=fine"
      register: ok
    - assert:
        that:
          - ok.msg == 'fine'
`, nil)
	if err != nil || recap.Stats["a"].Failed != 0 || recap.Stats["a"].Ignored != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "tender does not let a host's data choose the module") {
		t.Errorf("the refusal does not say why:\n%s", out)
	}
}
