package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestVersion: --version answers as ansible-playbook 2.14's does, with
// a first line "NAME [core X]" (the pattern tools use to read Ansible's
// version), the config file, and tender's own version; as any Ansible
// command, wherever --version stands before "--".
func TestVersion(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ansible.cfg")
	if err := os.WriteFile(cfg, []byte("[defaults]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ANSIBLE_CONFIG", cfg)
	core := regexp.MustCompile(`^(\S+) \[core ([0-9.]+)\]\n  config file = (.*)\n`)
	for _, c := range []struct {
		argv []string
		name string
	}{
		{[]string{"/x/ansible-playbook", "-i", "h,", "--version", "site.yml"}, "ansible-playbook"},
		{[]string{"/x/ansible", "all", "--version"}, "ansible"},
		{[]string{"/x/ansible-vault", "--version"}, "ansible-vault"},
		{[]string{"/x/ansible-doc", "--version"}, "ansible-doc"},
		{[]string{"/x/ansible-config", "--version"}, "ansible-config"},
		{[]string{"/x/ansible-inventory", "--version"}, "ansible-inventory"},
	} {
		code, out, e := runAs(t, c.argv...)
		m := core.FindStringSubmatch(out)
		if code != 0 || m == nil || m[1] != c.name || m[2] != "2.14.18" || m[3] != cfg || !strings.Contains(out, "  tender version = ") {
			t.Errorf("%v: exit %d\n%s%s", c.argv, code, out, e)
		}
	}
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, e := runCLI(t, args...)
		if code != 0 || !regexp.MustCompile(`^tender \S+ \[core 2\.14\.18\]\n`).MatchString(out) {
			t.Errorf("tender %v: exit %d\n%s%s", args, code, out, e)
		}
	}
	if code, _, e := runAs(t, "/x/ansible-vault", "view", "--", "--version"); code == 0 || strings.Contains(e, "[core") {
		t.Errorf("--version after -- is an argument: exit %d %s", code, e)
	}
}
