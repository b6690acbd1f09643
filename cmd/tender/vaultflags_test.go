package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/vault"
)

// A play over a local host reads a vaulted vars file, a vaulted
// group_vars file and an inline !vault value with --vault-password-file
// or --vault-id, and its output (text and --json) never shows them.
func TestPlayVault(t *testing.T) {
	dir := t.TempDir()
	pw := filepath.Join(dir, "pw")
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	enc := func(plain string) string {
		t.Helper()
		b, err := vault.Encrypt([]byte(plain), []byte("pw-1"), "")
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	write("pw", "pw-1\n")
	write("inv.ini", "[local]\nlocalhost ansible_connection=local\n")
	write("group_vars/all.yml", enc("group_secret: gs-hunter22\n"))
	write("secrets.yml", enc("file_secret: fs-hunter33\n"))
	inline := strings.ReplaceAll(strings.TrimSpace(enc("in-hunter44")), "\n", "\n      ")
	write("pb.yml", "- hosts: local\n  gather_facts: false\n  vars_files: [secrets.yml]\n  vars:\n    inline_secret: !vault |\n      "+inline+
		"\n  tasks:\n    - debug: msg=\"{{ inline_secret }} {{ file_secret }} {{ group_secret }} on\"\n")
	inv, pb := filepath.Join(dir, "inv.ini"), filepath.Join(dir, "pb.yml")
	for _, args := range [][]string{
		{"play", "-i", inv, pb, "--vault-password-file", pw},
		{"play", "-i", inv, pb, "--vault-id", "default@" + pw, "--json"},
	} {
		code, out, errOut := runCLI(t, args...)
		if code != 0 || !strings.Contains(out, "******** ******** ******** on") {
			t.Errorf("%v: code %d\n%s\n%s", args, code, out, errOut)
		}
		if strings.Contains(out+errOut, "hunter") {
			t.Errorf("%v: a secret leaked:\n%s", args, out)
		}
	}
	code, _, errOut := runCLI(t, "play", "-i", inv, pb, "--vault-id", "other@"+filepath.Join(dir, "missing"))
	if code != 5 || !strings.Contains(errOut, "missing was not found") {
		t.Errorf("missing password file: %d %s", code, errOut)
	}
	code, _, errOut = runCLI(t, "play", "-i", inv, pb)
	if code == 0 || !strings.Contains(errOut, "pb.yml:5:20: a vault-encrypted value, but no vault secret was given") {
		t.Errorf("no secret: %d %s", code, errOut)
	}
}
