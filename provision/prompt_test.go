package provision_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision"
)

// TestVarsPromptAsks checks the interactive path: the message as
// Ansible words it, private by default, confirm asking again until both
// answers match, -e skipping the question, an empty answer taking the
// default, and a failed prompt stopping the run.
func TestVarsPromptAsks(t *testing.T) {
	pb := `- hosts: all
  gather_facts: false
  vars_prompt:
    - name: who
      prompt: Who
      default: nobody
      private: false
    - name: pw
      prompt: Password
      confirm: true
    - name: given
    - name: bare
  tasks:
    - debug:
        msg: "{{ who }}/{{ pw }}/{{ given }}/{{ bare }}"
`
	var asked []string
	answers := []string{"", "s1", "s2", "s3", "s3", "b"}
	out, _, err := play(t, "h1 ansible_connection=local\n", pb, func(r *provision.Runner) {
		r.ExtraVars = map[string]any{"given": "g"}
		r.Prompt = func(_ context.Context, msg string, private bool) (string, error) {
			asked = append(asked, msg+map[bool]string{true: "(private)", false: ""}[private])
			a := answers[0]
			answers = answers[1:]
			return a, nil
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Who [nobody]: ", "Password: (private)", "confirm Password: (private)",
		"Password: (private)", "confirm Password: (private)", "input for bare: (private)"}
	if strings.Join(asked, "|") != strings.Join(want, "|") {
		t.Errorf("asked %q\nwant  %q", asked, want)
	}
	if !strings.Contains(out, `"msg": "nobody/s3/g/b"`) {
		t.Errorf("output:\n%s", out)
	}
	if !strings.Contains(out, "VALUES ENTERED DO NOT MATCH") {
		t.Errorf("a mismatch is not said:\n%s", out)
	}
	_, _, err = play(t, "h1 ansible_connection=local\n", pb, func(r *provision.Runner) {
		r.Prompt = func(context.Context, string, bool) (string, error) { return "", context.Canceled }
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("a prompt that fails must stop the run: %v", err)
	}
}
