package inventory

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/vault"
)

// vaultFixture is an inventory directory whose secrets ansible-vault
// encrypted (vault/testdata, recorded by its gen.sh): a YAML inventory with
// inline !vault values, a vault-encrypted group_vars file and a
// host_vars directory holding one.
func vaultFixture(t *testing.T) (dir string, keys *vault.Keyring) {
	t.Helper()
	rec := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "vault", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	dir = t.TempDir()
	inline := strings.ReplaceAll(string(rec("ansible-inline.yml")), "\n", "\n      ")
	inv := "all:\n  hosts:\n    web1:\n      " + strings.TrimSpace(inline) + "\n"
	write := func(name string, data []byte) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("hosts.yml", []byte(inv))
	// plain.txt holds db_password, api_token and list: vaulted whole.
	write("group_vars/all.yml", rec("ansible-1.1.vault"))
	write("host_vars/web1/secret.yml", rec("ansible-prod.vault"))
	keys = &vault.Keyring{}
	for _, s := range [][2]string{{"", "pw-default"}, {"dev", "pw-dev"}, {"prod", "pw-prod"}} {
		if err := keys.AddSource(context.Background(), s[0], filepath.Join("..", "vault", "testdata", s[1]), nil); err != nil {
			t.Fatal(err)
		}
	}
	return dir, keys
}

func TestVaultInventory(t *testing.T) {
	dir, keys := vaultFixture(t)
	inv, err := LoadWith(Options{Decrypt: func(b []byte) ([]byte, error) { return keys.Decrypt(b, "") }}, filepath.Join(dir, "hosts.yml"))
	if err != nil {
		t.Fatal(err)
	}
	// The inline values, as the inventory file sets them.
	inline := inv.Host("web1").Vars
	for k, v := range map[string]any{"plain_var": "visible", "db_password": "s3cr3t-hunter2", "api_token": "tok-inline"} {
		if inline[k] != v {
			t.Errorf("%s = %#v, want %#v", k, inline[k], v)
		}
	}
	// host_vars/web1/secret.yml (vault id prod) overrides them.
	vars, err := inv.HostVars("web1")
	if err != nil {
		t.Fatal(err)
	}
	if vars["api_token"] != "tok-é-✓" || vars["plain_var"] != "visible" {
		t.Errorf("host vars %#v", vars)
	}
	if l, _ := vars["list"].([]any); len(l) != 2 {
		t.Errorf("list from the vaulted files = %#v", vars["list"])
	}
}

func TestVaultInventoryErrors(t *testing.T) {
	dir, _ := vaultFixture(t)
	if _, err := Load(filepath.Join(dir, "hosts.yml")); err == nil || !strings.Contains(err.Error(), "hosts.yml:5:20") ||
		!strings.Contains(err.Error(), "no vault secret was given") {
		t.Errorf("inline value without secrets: %v", err)
	}
	var only vault.Keyring
	_ = only.Add("", []byte("pw-dev"))
	inv, err := LoadWith(Options{Decrypt: func(b []byte) ([]byte, error) { return only.Decrypt(b, "") }}, filepath.Join(dir, "hosts.yml"))
	if err == nil {
		_, err = inv.HostVars("web1")
	}
	if err == nil || !strings.Contains(err.Error(), "Decryption failed (no vault secrets were found that could decrypt)") {
		t.Errorf("wrong secrets: %v", err)
	}
}
