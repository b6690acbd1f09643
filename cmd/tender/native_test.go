package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJinja2Native: jinja2_native (ANSIBLE_JINJA2_NATIVE or ansible.cfg's
// [defaults] jinja2_native) is applied, not warned about: a template's
// text is read back as a Python literal, set_fact keeps "yes" as text, and
// the template module still writes text. Without it the same playbook
// gives ansible-playbook 2.14's non-native answers.
func TestJinja2Native(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("inv.ini", "h1 ansible_connection=local\n")
	write("t.j2", "{{ s }}\n")
	write("pb.yml", `- hosts: all
  gather_facts: false
  vars:
    s: "12"
  tasks:
    - debug: msg="{{ s }}"
    - set_fact: f="yes"
    - debug: msg="{{ f | type_debug }}"
    - template: src=t.j2 dest={{ playbook_dir }}/out.txt
`)
	t.Chdir(dir)
	t.Setenv("ANSIBLE_CONFIG", "/nonexistent/ansible.cfg")
	code, out, errOut := runCLI(t, "play", "-i", "inv.ini", "pb.yml")
	if code != 0 || !strings.Contains(out, `"msg": "12"`) || !strings.Contains(out, `"msg": "bool"`) {
		t.Fatalf("without jinja2_native: exit %d:\n%s%s", code, out, errOut)
	}
	os.Remove(filepath.Join(dir, "out.txt"))

	t.Setenv("ANSIBLE_JINJA2_NATIVE", "true")
	code, out, errOut = runCLI(t, "play", "-i", "inv.ini", "pb.yml")
	if code != 0 || !strings.Contains(out, `"msg": 12`) || !strings.Contains(out, `"msg": "str"`) || strings.Contains(errOut, "does not apply") {
		t.Fatalf("with jinja2_native: exit %d:\n%s%s", code, out, errOut)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out.txt")); err != nil || string(b) != "12\n" {
		t.Errorf("the template module under jinja2_native wrote %q, %v", b, err)
	}
}
