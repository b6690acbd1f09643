package provision_test

import (
	"strings"
	"testing"
)

// TestRegisteredFromPlaybookTemplated: set_fact's registered result is
// templated again when read, in the key order of Ansible's result (the
// module's keys, then failed and changed), so a failed_when error kept in
// it fails the template that reads it; a command's result is unsafe and
// never templated again.
func TestRegisteredFromPlaybookTemplated(t *testing.T) {
	out, recap, err := play(t, "a\n", `
- hosts: all
  gather_facts: false
  vars:
    v1: false
    tmpl: "{{ '{{' }} 7 * 6 {{ '}}' }}"
  tasks:
    - set_fact: {f1: 1}
      register: r1
      failed_when: v1 < '12'
      ignore_errors: true
    - debug: msg="{{ r1.changed }}"
      ignore_errors: true
    - command: echo "{{ tmpl }}"
      register: r2
    - set_fact: {f2: "{{ tmpl }}"}
      register: r3
    - debug: msg="{{ r2.stdout }} {{ r3.ansible_facts.f2 }}"
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`An unhandled exception occurred while templating '{'ansible_facts': {'f1': 1}, 'failed': True, 'changed': False, 'failed_when_result': `,
		`"msg": "{{ 7 * 6 }} 42"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in\n%s", want, out)
		}
	}
	if s := recap.Stats["a"]; s.Ignored != 2 {
		t.Errorf("recap %+v\n%s", *s, out)
	}
}
