package provision_test

import (
	"testing"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks/builtin"
)

// TestFailureOutsideModuleHasNoChanged: a task that fails before its
// module runs (an argument, a condition or a loop that cannot be
// rendered) registers only failed and msg, as Ansible's does: its changed
// is undefined.
func TestFailureOutsideModuleHasNoChanged(t *testing.T) {
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - debug: msg="{{ nosuch }}"
      register: a
      ignore_errors: true
    - debug: msg=x
      when: nosuch
      register: b
      ignore_errors: true
    - debug: msg=x
      loop: "{{ nosuch }}"
      register: c
      ignore_errors: true
    - assert:
        that:
          - a.failed and a.changed is undefined
          - b.failed and b.changed is undefined
          - c.failed and c.changed is undefined
`, nil)
	if err != nil || recap.Stats["a"].Failed != 0 || recap.Stats["a"].Ignored != 3 {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestModuleFailureHasChanged: a module that refuses its arguments ran,
// so its result says changed: false, as Ansible's does.
func TestModuleFailureHasChanged(t *testing.T) {
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - stat: {}
      register: a
      ignore_errors: true
    - assert:
        that:
          - a.failed and a.changed is defined and not a.changed
`, func(r *provision.Runner) { r.Modules = builtin.Registry() })
	if err != nil || recap.Stats["a"].Failed != 0 || recap.Stats["a"].Ignored != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
}
