package provision_test

import (
	"testing"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/vault"
)

// NoLogValues learns what a no_log task handled, for each loop item
// too: its rendered arguments and its result's strings; a task without
// no_log, and a skipped no_log task, teach it nothing.
func TestNoLogValuesLearnsArgsAndResults(t *testing.T) {
	cs := &vault.Censor{}
	_, _, err := play(t, "h1 ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  vars:
    token: arg-s3cret
  tasks:
    - command: echo {{ token }}
      no_log: true
    - shell: printf %s out-{{ item }}
      loop: [looped-s3cret]
      no_log: true
    - command: echo visible-value
    - command: echo skipped-s3cret
      when: false
      no_log: true
`, func(r *provision.Runner) { r.NoLogValues = cs })
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]string{
		"echo arg-s3cret":             vault.Mask, // the rendered argument
		"arg-s3cret":                  vault.Mask, // the command's stdout
		"printf %s out-looped-s3cret": vault.Mask,
		"out-looped-s3cret":           vault.Mask,
		"visible-value":               "visible-value",
		"echo skipped-s3cret":         "echo skipped-s3cret",
	} {
		if got := cs.String(text); got != want {
			t.Errorf("%q censored as %q, want %q", text, got, want)
		}
	}
}
