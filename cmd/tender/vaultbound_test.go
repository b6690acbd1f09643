package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/vault"
)

// Every way a vault-encrypted file reaches tender refuses one over
// vault.MaxSize, naming the file and the limit: vault view, decrypt and
// rekey, -e @FILE, a group_vars file, vars_files, import_tasks,
// include_vars, copy and template sources. The file is sparse: nothing
// but its header is on disk, so reading it whole would pass its size,
// and its zero bytes would fail as malformed, not as too large.
func TestVaultFilesBounded(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sparse := func(name string) string {
		t.Helper()
		p := write(name, "$ANSIBLE_VAULT;1.1;AES256\n")
		if err := os.Truncate(p, vault.MaxSize+1); err != nil {
			t.Fatal(err)
		}
		return p
	}
	big := sparse("big.vault")
	sparse("biginv/group_vars/all/big.vault.yml")
	pw := write("pw", "pw-1\n")
	inv := write("inv.ini", "[local]\nlocalhost ansible_connection=local\n")
	bigInv := write("biginv/hosts.ini", "[local]\nlocalhost ansible_connection=local\n")
	play := func(name, body string) string {
		return write(name, "- hosts: local\n  gather_facts: false\n"+body)
	}
	ok := play("ok.yml", "  tasks:\n    - debug: msg=hi\n")
	out := filepath.Join(dir, "out")
	want := fmt.Sprintf("the file is %d bytes, over the limit of 64 MiB", vault.MaxSize+1)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"vault view", []string{"vault", "view", "--vault-password-file", pw, big}},
		{"vault decrypt", []string{"vault", "decrypt", "--vault-password-file", pw, "--output", out, big}},
		{"vault rekey", []string{"vault", "rekey", "--vault-password-file", pw, "--new-vault-password-file", pw, big}},
		{"-e @FILE", []string{"play", "-i", inv, "--vault-password-file", pw, "-e", "@" + big, ok}},
		{"group_vars", []string{"play", "-i", bigInv, "--vault-password-file", pw, ok}},
		{"vars_files", []string{"play", "-i", inv, "--vault-password-file", pw, play("vf.yml", "  vars_files: [big.vault]\n  tasks:\n    - debug: msg=hi\n")}},
		{"import_tasks", []string{"play", "-i", inv, "--vault-password-file", pw, play("it.yml", "  tasks:\n    - import_tasks: big.vault\n")}},
		{"include_vars", []string{"play", "-i", inv, "--vault-password-file", pw, play("iv.yml", "  tasks:\n    - include_vars: big.vault\n")}},
		{"copy", []string{"play", "-i", inv, "--vault-password-file", pw, play("cp.yml", "  tasks:\n    - copy: src=big.vault dest="+out+"\n")}},
		{"template", []string{"play", "-i", inv, "--vault-password-file", pw, play("tp.yml", "  tasks:\n    - template: src=big.vault dest="+out+"\n")}},
	} {
		code, stdout, stderr := runCLI(t, c.args...)
		text := stdout + stderr
		// "the file is N bytes": refused by its size, before it was read.
		if code == 0 || !strings.Contains(text, "big.vault") || !strings.Contains(text, want) {
			t.Errorf("%s: exit %d, want a refusal naming big.vault and %q:\n%s", c.name, code, want, text)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("something was written from the refused file")
	}
}
