package provision_test

import (
	"strings"
	"testing"
)

// TestLoopTemplateErrors: a loop whose template fails says so as Ansible's
// templating does (a type error names the template), not with tender's
// position; an undefined variable is said twice.
func TestLoopTemplateErrors(t *testing.T) {
	out, _, err := play(t, "a\n", `
- hosts: all
  gather_facts: false
  vars: {v3: [3, 0], v0: "a"}
  tasks:
    - debug: {}
      loop: "{{ v3 | select('>', v0) | list }}"
      ignore_errors: true
    - debug: {}
      loop: "{{ nope }}"
      ignore_errors: true
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"msg": "Unexpected templating type error occurred on ({{ v3 | select('>', v0) | list }}): '>' not supported between instances of 'int' and 'str'.`,
		`"msg": "'nope' is undefined. 'nope' is undefined"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in\n%s", want, out)
		}
	}
}
