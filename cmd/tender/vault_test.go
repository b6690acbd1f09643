package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/vault"
)

func TestVaultCommands(t *testing.T) {
	dir := t.TempDir()
	pw, pw2, f := filepath.Join(dir, "pw"), filepath.Join(dir, "pw2"), filepath.Join(dir, "secret.yml")
	os.WriteFile(pw, []byte("pw-1\n"), 0o600)
	os.WriteFile(pw2, []byte("pw-2\n"), 0o600)
	os.WriteFile(f, []byte("a: hunter2\n"), 0o640)
	open := func(pass string) string {
		t.Helper()
		env, err := vault.Parse(mustRead(t, f))
		if err != nil {
			t.Fatal(err)
		}
		plain, err := env.Decrypt([]byte(pass))
		if err != nil {
			t.Fatal(err)
		}
		return string(plain)
	}
	if code, _, e := runCLI(t, "vault", "encrypt", "--vault-id", "ops@"+pw, f); code != 0 {
		t.Fatalf("encrypt: %d %s", code, e)
	}
	if got := open("pw-1"); got != "a: hunter2\n" || !strings.HasPrefix(string(mustRead(t, f)), "$ANSIBLE_VAULT;1.2;AES256;ops\n") {
		t.Fatalf("encrypted: %q", mustRead(t, f))
	}
	if fi, _ := os.Stat(f); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %o, want 0640 kept", fi.Mode().Perm())
	}
	if code, out, e := runCLI(t, "vault", "view", "--vault-password-file", pw, f); code != 0 || out != "a: hunter2\n" {
		t.Errorf("view: %d %q %s", code, out, e)
	}
	if code, _, e := runCLI(t, "vault", "view", "--vault-password-file", pw2, f); code == 0 || !strings.Contains(e, "Decryption failed (no vault secrets were found that could decrypt) on "+f) {
		t.Errorf("view with the wrong password: %d %s", code, e)
	}
	if code, _, e := runCLI(t, "vault", "rekey", "--vault-password-file", pw, "--new-vault-password-file", pw2, f); code != 0 || open("pw-2") != "a: hunter2\n" {
		t.Errorf("rekey: %d %s", code, e)
	}
	if code, _, e := runCLI(t, "vault", "decrypt", "--vault-password-file", pw2, f); code != 0 || string(mustRead(t, f)) != "a: hunter2\n" {
		t.Errorf("decrypt: %d %s %q", code, e, mustRead(t, f))
	}
	code, out, e := runCLI(t, "vault", "encrypt_string", "--vault-password-file", pw, "-n", "token", "s3cr3t")
	if code != 0 {
		t.Fatalf("encrypt_string: %d %s", code, e)
	}
	dec := yaml11.NewDecoder()
	var k vault.Keyring
	k.Add("", []byte("pw-1"))
	dec.Decrypt = func(b []byte) ([]byte, error) { return k.Decrypt(b, "") }
	if m, err := dec.Vars([]byte(out), "out"); err != nil || m["token"] != "s3cr3t" {
		t.Errorf("encrypt_string output %q: %v %v", out, m, err)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, ".*tender-*"))
	if len(matches) != 0 {
		t.Errorf("temporary files left: %v", matches)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
