package provision_test

import (
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision"
)

// TestConditionTemplateWarning: a when: or assert's that: written as a
// template warns at each evaluation, as ansible-playbook's workers do (8
// warnings for this play on two hosts, recorded from ansible-playbook).
func TestConditionTemplateWarning(t *testing.T) {
	var warnings []string
	_, _, err := play(t, "a\nb\n", `
- hosts: all
  gather_facts: false
  vars: {foo: bar}
  tasks:
    - assert:
        that:
          - '"{{ foo }}" == "bar"'
    - debug: msg=x
      when: '"{{ foo }}" == "bar"'
    - debug: msg=x
      when: '"{{ foo }}" == "bar"'
    - debug: msg=y
      changed_when: "{{ foo == 'bar' }}"
    - debug: msg=z
      when: foo == 'bar'
`, func(r *provision.Runner) {
		r.Events = func(e provision.Event) {
			if e.Kind == provision.Warning {
				warnings = append(warnings, e.Msg)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 8 || !strings.HasSuffix(warnings[0], `Found: "{{ foo }}" == "bar"`) || !strings.HasSuffix(warnings[7], `Found: {{ foo == 'bar' }}`) {
		t.Fatalf("%d warnings: %q", len(warnings), warnings)
	}
}
