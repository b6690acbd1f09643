package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlayReadsAnsibleConfig: tender play reads ANSIBLE_* and the
// ansible.cfg of Ansible's search order, and -u and --private-key as
// ansible-playbook's command line; the config lookup reports them. The
// answers are ansible-playbook's for the same command (recorded by hand:
// ANSIBLE_CONFIG=f.cfg ansible-playbook -i hosts pb.yml -u bob
// --private-key k1 printed "7 ['bob', '<dir>/k1']").
func TestPlayReadsAnsibleConfig(t *testing.T) {
	dir := t.TempDir()
	cfg, inv, pb := filepath.Join(dir, "f.cfg"), filepath.Join(dir, "hosts"), filepath.Join(dir, "pb.yml")
	os.WriteFile(cfg, []byte("[defaults]\nforks = 7\nlog_path = "+filepath.Join(dir, "log")+"\n"), 0o644)
	os.WriteFile(inv, []byte("h2 ansible_connection=local\n"), 0o644)
	os.WriteFile(pb, []byte(`- hosts: all
  gather_facts: false
  tasks:
    - debug: msg="{{ lookup('config', 'DEFAULT_FORKS') }} {{ q('config', 'remote_user', 'private_key_file', plugin_type='connection', plugin_name='ssh') }}"
`), 0o644)
	t.Setenv("ANSIBLE_CONFIG", cfg)
	t.Chdir(dir)
	code, out, errOut := runCLI(t, "play", "-i", inv, pb, "-u", "bob", "--private-key", "k1")
	if want := `"msg": "7 ['bob', '` + filepath.Join(dir, "k1") + `']"`; code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d, output lacks %s:\n%s%s", code, want, out, errOut)
	}
	// The log_path setting is read, not applied: tender says so. At -v
	// it names the file, as ansible-playbook does.
	if want := "does not apply these Ansible settings yet (its own flags do what they do): DEFAULT_LOG_PATH (" + cfg + ")"; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q:\n%s", want, errOut)
	}
	if _, out, _ := runCLI(t, "play", "-v", "-i", inv, pb); !strings.Contains(out, "Using "+cfg+" as config file\n") {
		t.Errorf("-v does not name the config file:\n%s", out)
	}
}

// TestPlayRefusesInvalidConfig: a setting whose value does not read stops
// tender play before it runs anything, with ansible-playbook's message
// (config/testdata/dump/bad_type.json) and exit code.
func TestPlayRefusesInvalidConfig(t *testing.T) {
	t.Setenv("ANSIBLE_FORKS", "abc")
	code, _, errOut := runCLI(t, "play", "--syntax-check", "-i", "../../e2e/examples/hosts.ini", "../../e2e/examples/site.yml")
	want := "Invalid type for configuration option setting: DEFAULT_FORKS (from env: ANSIBLE_FORKS): invalid literal for int() with base 10: 'abc'"
	if code != 5 || !strings.Contains(errOut, want) {
		t.Errorf("exit %d (want 5), stderr %q lacks %q", code, errOut, want)
	}
}
