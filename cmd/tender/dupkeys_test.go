package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDuplicateYAMLKeys: a key given twice in a mapping of a playbook, a
// vars file (vars_files, include_vars), a YAML inventory or a group_vars
// file keeps the last value and is warned about once, in Ansible's words,
// as DUPLICATE_YAML_DICT_KEY says: warn (the default), error (exit 4) or
// ignore. The warnings are ansible-playbook 2.14's for the same files.
func TestDuplicateYAMLKeys(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("inv.yml", "all:\n  hosts:\n    h1: {ansible_connection: local, a: 1, a: 2}\n")
	write("group_vars/all.yml", "g: 1\ng: 2\n")
	write("v.yml", "x: 1\nx: 2\n")
	write("pb.yml", `- hosts: all
  gather_facts: false
  vars_files: [v.yml]
  vars:
    foo: bar
    foo: baz
  tasks:
    - include_vars: v.yml
    - debug: msg="{{ a }}{{ g }}{{ x }}{{ foo }}"
`)
	t.Chdir(dir)
	msg := func(file string, line, col int, key string) string {
		return "[WARNING]: While constructing a mapping from " + filepath.Join(dir, file) + ", line " + string(rune('0'+line)) + ", column " + string(rune('0'+col)) + ", found a duplicate dict key (" + key + "). Using last defined value only.\n"
	}
	warnings := []string{msg("inv.yml", 3, 9, "a"), msg("group_vars/all.yml", 1, 1, "g"), msg("pb.yml", 5, 5, "foo"), msg("v.yml", 1, 1, "x")}

	code, out, errOut := runCLI(t, "play", "-i", "inv.yml", "pb.yml")
	if code != 0 || !strings.Contains(out, `"msg": "222baz"`) {
		t.Fatalf("warn: exit %d, the last values are not kept:\n%s%s", code, out, errOut)
	}
	for _, w := range warnings {
		if n := strings.Count(errOut, w); n != 1 {
			t.Errorf("warn: %q given %d times, want once:\n%s", w, n, errOut)
		}
	}

	t.Setenv("ANSIBLE_DUPLICATE_YAML_DICT_KEY", "ignore")
	code, out, errOut = runCLI(t, "play", "-i", "inv.yml", "pb.yml")
	if code != 0 || !strings.Contains(out, `"msg": "222baz"`) || strings.Contains(errOut, "duplicate") || strings.Contains(errOut, "does not apply") {
		t.Errorf("ignore: exit %d:\n%s%s", code, out, errOut)
	}

	write("inv.yml", "h1 ansible_connection=local\n")
	write("group_vars/all.yml", "g: 2\n")
	t.Setenv("ANSIBLE_DUPLICATE_YAML_DICT_KEY", "error")
	code, _, errOut = runCLI(t, "play", "-i", "inv.yml", "pb.yml")
	if want := "pb.yml:5:5: While constructing a mapping from " + filepath.Join(dir, "pb.yml") + ", line 5, column 5, found a duplicate dict key (foo)"; code != 4 || !strings.Contains(errOut, want) {
		t.Errorf("error: exit %d (want 4), stderr lacks %q:\n%s", code, want, errOut)
	}

	t.Setenv("ANSIBLE_DUPLICATE_YAML_DICT_KEY", "loud")
	if code, _, errOut = runCLI(t, "play", "-i", "inv.yml", "pb.yml"); code != 5 || !strings.Contains(errOut, "DUPLICATE_YAML_DICT_KEY") {
		t.Errorf("a bad policy: exit %d (want 5):\n%s", code, errOut)
	}
}
