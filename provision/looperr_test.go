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

// TestLoopWhenBeforeKeywords: an item's when: is evaluated before its
// keywords, so a when: that fails is the error of a looped task whose
// ignore_errors does not evaluate, and the failure is ignored (the
// keyword as written is true), as ansible-playbook's.
func TestLoopWhenBeforeKeywords(t *testing.T) {
	out, recap, err := play(t, "a\n", `
- hosts: all
  gather_facts: false
  tasks:
    - debug: msg={{ item }}
      loop: [1, 2]
      when: nope == 1
      ignore_errors: "{{ 16 }}"
    - debug: msg=end
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "The conditional check 'nope == 1' failed") || strings.Contains(out, "is not a valid boolean") {
		t.Errorf("output:\n%s", out)
	}
	if s := recap.Stats["a"]; s.Ignored != 1 || s.OK != 2 {
		t.Errorf("recap %+v\n%s", *s, out)
	}
}

// TestDebugVarPythonException: debug's var that raises a Python exception
// of a filter's (not Ansible's own error) fails as Ansible's worker
// reports it: an unexpected failure, with the exception and an empty
// stdout; a loop's exception likewise.
func TestDebugVarPythonException(t *testing.T) {
	out, recap, err := play(t, "a\n", `
- hosts: all
  gather_facts: false
  vars: {v6: false}
  tasks:
    - debug:
        var: ((v6 | reverse) | list)
      ignore_errors: true
    - debug: msg={{ item }}
      loop: "{{ 'a' | regex_findall('(') }}"
      ignore_errors: true
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"msg": "Unexpected failure during module execution: argument must be iterable"`,
		`The error was: jinja2.exceptions.FilterArgumentError: argument must be iterable`,
		`"msg": "Unexpected failure during module execution: missing ), unterminated subpattern at position 0"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in\n%s", want, out)
		}
	}
	if s := recap.Stats["a"]; s.Ignored != 2 {
		t.Errorf("recap %+v\n%s", *s, out)
	}
}
