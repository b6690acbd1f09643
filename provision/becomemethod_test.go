package provision_test

import (
	"strings"
	"testing"
)

// A become method no plugin has fails the task with Ansible's message,
// even where become would not run (the login user is the one to
// become); plugins' full names are their short ones.
func TestBecomeMethodUnknown(t *testing.T) {
	for method, want := range map[string]string{
		"no_such_method":             "Invalid become method specified, could not find matching plugin: 'no_such_method'",
		"ansible.builtin.doas":       "could not find matching plugin: 'ansible.builtin.doas'",
		"ansible.builtin.sudo":       "",
		"community.general.doas":     "",
		"sudo":                       "",
		"community.general.sudo_not": "could not find matching plugin",
	} {
		out, recap, err := play(t, "h1 ansible_connection=local ansible_become=true ansible_become_method="+method+"\n", `
- hosts: all
  gather_facts: false
  tasks:
    - command: "true"
      vars:
        ansible_become_user: "{{ lookup('pipe', 'id -un') }}"
`, nil)
		if err != nil {
			t.Fatal(err)
		}
		failed := recap.Stats["h1"].Failed == 1
		if failed != (want != "") || (want != "" && !strings.Contains(out, want)) {
			t.Errorf("%s: failed=%v, want %q:\n%s", method, failed, want, out)
		}
	}
}
