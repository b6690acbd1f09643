package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/vault"
)

// TestInventoryVault: tender inventory takes the vault flags and the
// vault_password_file setting, as ansible-inventory does. As recorded
// from ansible-inventory 2.14: --list and --host show a vault-encrypted
// file's values decrypted and a !vault value as {"__ansible_vault":
// its vault text}, which needs no secret; --graph --vars decrypts both.
func TestInventoryVault(t *testing.T) {
	dir := t.TempDir()
	file, err := vault.Encrypt([]byte("db_pass: hunter2\n"), []byte("secret"), "")
	if err != nil {
		t.Fatal(err)
	}
	inline, err := vault.Encrypt([]byte("inline-secret"), []byte("secret"), "")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.TrimSuffix(string(inline), "\n")
	files := map[string]string{
		"hosts":              "[web]\nw1\n",
		"pw":                 "secret\n",
		"group_vars/web.yml": string(file),
		"group_vars/all.yml": "api_key: !vault |\n  " + strings.ReplaceAll(text, "\n", "\n  "),
		"ansible.cfg":        "[defaults]\nvault_password_file = pw\n",
	}
	for name, s := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inv, pw := filepath.Join(dir, "hosts"), filepath.Join(dir, "pw")
	vaulted := `"__ansible_vault": "` + strings.ReplaceAll(text, "\n", `\n`) + `"`
	t.Setenv("ANSIBLE_CONFIG", "")
	for _, c := range []struct {
		args      []string
		want, not []string
		code      int
		cfg       bool
		errWanted string
	}{
		{[]string{"inventory", "list", "-i", inv, "--vault-password-file", pw}, []string{`"db_pass": "hunter2"`, vaulted}, []string{"inline-secret"}, 0, false, ""},
		{[]string{"inventory", "host", "-i", inv, "w1", "--vault-id", pw}, []string{`"db_pass": "hunter2"`, vaulted}, []string{"inline-secret"}, 0, false, ""},
		{[]string{"inventory", "host", "-i", inv, "w1"}, []string{`"db_pass": "hunter2"`, vaulted}, nil, 0, true, ""},
		{[]string{"inventory", "graph", "-i", inv, "--vars"}, []string{"{api_key = inline-secret}", "{db_pass = hunter2}"}, nil, 0, true, ""},
		{[]string{"inventory", "list", "-i", inv}, nil, []string{"hunter2"}, 1, false, "no vault secret was given"},
	} {
		if c.cfg {
			t.Setenv("ANSIBLE_CONFIG", filepath.Join(dir, "ansible.cfg"))
		} else {
			t.Setenv("ANSIBLE_CONFIG", "")
		}
		code, out, errOut := runCLI(t, c.args...)
		bad := code != c.code || !strings.Contains(errOut, c.errWanted)
		for _, s := range c.want {
			bad = bad || !strings.Contains(out, s)
		}
		for _, s := range c.not {
			bad = bad || strings.Contains(out, s)
		}
		if bad {
			t.Errorf("%v: exit %d\n%s%s", c.args, code, out, errOut)
		}
	}
}
