package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlayErrorExit: a play keyword that does not validate stops the run
// with no recap, as ansible-playbook's: exit 4 for its parser errors (an
// undefined variable, hosts that are not strings), 1 for a template that
// fails otherwise.
func TestPlayErrorExit(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("ANSIBLE_CONFIG", "/nonexistent/ansible.cfg")
	if err := os.WriteFile("inv.ini", []byte("h1 ansible_connection=local\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		keyword string
		code    int
		msg     string
	}{
		{`serial: "{{ nope }}"`, 4, "The field 'serial' has an invalid value, which includes an undefined variable. The error was: 'nope' is undefined. 'nope' is undefined"},
		{`hosts: "{{ [1] }}"`, 4, "the field 'hosts' should be a list of (<class 'str'>,), but the item '1' is a <class 'int'>"},
		{`max_fail_percentage: "x"`, 4, "could not convert string to float: 'x'"},
		{`hosts: "{{ 1 + 'a' }}"`, 1, "Unexpected templating type error occurred on ({{ 1 + 'a' }}): unsupported operand type(s) for +: 'int' and 'str'"},
		{`serial: "a"`, 1, "invalid literal for int() with base 10: 'a'"},
	} {
		pb := "- hosts: all\n  gather_facts: false\n  " + c.keyword + "\n  tasks:\n    - debug: msg=hi\n"
		if err := os.WriteFile(filepath.Join(dir, "pb.yml"), []byte(pb), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runCLI(t, "play", "-i", "inv.ini", "pb.yml")
		if code != c.code || !strings.Contains(errOut, c.msg) || strings.Contains(out, "RECAP") {
			t.Errorf("%s: exit %d (want %d):\n%s%s", c.keyword, code, c.code, out, errOut)
		}
	}
}
