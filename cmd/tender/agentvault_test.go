package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/term"

	"github.com/tender-sh/tender/vault"
)

// agent status and deploy take the vault flags of `tender play` and
// ansible.cfg's vault_password_file: a vaulted group_vars file and a
// vaulted -e file open with them, and are refused, saying how to give a
// secret, without them. What they decrypted stays out of the ledger,
// even in the failure of a host that prints it.
func TestAgentVault(t *testing.T) {
	t.Setenv("ANSIBLE_CONFIG", "/nonexistent/ansible.cfg")
	bundle, inv, state, root := agentBundle(t)
	dir := filepath.Dir(inv)
	write := func(p, data string) string {
		t.Helper()
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	enc := func(plain string) string {
		t.Helper()
		b, err := vault.Encrypt([]byte(plain), []byte("pw-1"), "")
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	pw := write(filepath.Join(dir, "pw"), "pw-1\n")
	write(filepath.Join(dir, "group_vars/all.yml"), enc("db_url: GroupVault-s3cret\n"))
	extra := write(filepath.Join(dir, "extra.yml"), enc("dbconn: ExtraVault-s3cret\n"))
	write(filepath.Join(bundle, "deploy.yml"), `- hosts: all
  gather_facts: false
  tasks:
    - copy: src={{ item.src }} dest={{ item.dest }}
      loop: "{{ agent_bundle_files }}"
    - copy: content="{{ db_url }} {{ dbconn }}" dest=`+root+`/conf-{{ inventory_hostname }}
    - fail: msg="cannot reach {{ db_url }} with {{ dbconn }}"
      when: inventory_hostname == 'b'
`)
	args := []string{"-i", inv, "--bundle", bundle, "--state", state}
	code, out, errOut := runCLI(t, append([]string{"agent", "status"}, args...)...)
	if code == 0 || !strings.Contains(errOut, "group_vars/all.yml: a vault-encrypted file, but no vault secret was given (--vault-id, --vault-password-file or --ask-vault-pass)") {
		t.Errorf("status without a secret: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, append([]string{"agent", "deploy", "-e", "@" + extra, "--vault-password-file", pw}, args...)...)
	if code != 2 || !strings.Contains(out, "1 deployed, 1 failed") {
		t.Fatalf("deploy: exit %d\n%s%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "conf-a")); string(b) != "GroupVault-s3cret ExtraVault-s3cret" {
		t.Errorf("the playbook saw %q", b)
	}
	_, hist, _ := runCLI(t, "agent", "history", "--state", state)
	for what, text := range map[string]string{"deploy": out + errOut, "history": hist} {
		if strings.Contains(text, "s3cret") || !strings.Contains(text, "cannot reach ******** with ********") {
			t.Errorf("%s: want the failure with its vault values blanked:\n%s", what, text)
		}
	}
	for _, flags := range [][]string{{"--vault-id", "default@" + pw}, {"--vault-pass-file", pw}} {
		code, out, errOut = runCLI(t, append(append([]string{"agent", "status"}, flags...), args...)...)
		if code != 0 || !strings.Contains(out, "2 hosts:") {
			t.Errorf("status %v: exit %d\n%s%s", flags, code, out, errOut)
		}
	}
	cfg := write(filepath.Join(dir, "ansible.cfg"), "[defaults]\nvault_password_file = "+pw+"\n")
	t.Setenv("ANSIBLE_CONFIG", cfg)
	if code, out, errOut = runCLI(t, append([]string{"agent", "status"}, args...)...); code != 0 || !strings.Contains(out, "2 hosts:") {
		t.Errorf("status with ansible.cfg's vault_password_file: exit %d\n%s%s", code, out, errOut)
	}
	t.Setenv("ANSIBLE_CONFIG", "/nonexistent/ansible.cfg")
	if term.IsTerminal(int(os.Stdin.Fd())) {
		return // -J would ask on it
	}
	code, _, errOut = runCLI(t, append([]string{"agent", "deploy", "-J"}, args...)...)
	if code != 5 || !strings.Contains(errOut, "no terminal to prompt on") {
		t.Errorf("deploy -J without a terminal: exit %d\n%s", code, errOut)
	}
}
