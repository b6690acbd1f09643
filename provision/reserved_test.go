package provision_test

import (
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision"
)

// TestReservedNameWarning: a play variable named as a keyword or a
// template global is warned about once, as Ansible does; vars is not.
func TestReservedNameWarning(t *testing.T) {
	out, _, err := play(t, "h1 ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  vars:
    lipsum: text
    when: later
    fine: 1
  tasks:
    - debug:
        msg: "{{ fine }}"
`, func(r *provision.Runner) { r.ExtraVars = map[string]any{"vars": 1} })
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"lipsum", "when"} {
		if strings.Count(out, "Found variable using reserved name: "+n+"\n") != 1 {
			t.Errorf("no warning for %s:\n%s", n, out)
		}
	}
	if strings.Contains(out, "reserved name: fine") || strings.Contains(out, "reserved name: vars") {
		t.Errorf("warned about an ordinary name:\n%s", out)
	}
}
