package expr

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/vault"
)

// TestVaultPluginsAgainstAnsible checks the vault and unvault filters, the
// unvault and file lookups of a vaulted file and the vault_encrypted test
// against ansible-core's answers (testdata/vault/gen.py): the same value,
// or a failure whose message is part of Ansible's.
func TestVaultPluginsAgainstAnsible(t *testing.T) {
	dir, err := filepath.Abs("testdata/vault")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Expr  string `json:"expr"`
		Value any    `json:"value"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	keys := &vault.Keyring{}
	if err := keys.Add("", []byte("vault-pw")); err != nil {
		t.Fatal(err)
	}
	env := &Env{SearchPaths: []string{dir}, BaseDir: dir,
		Vault: vault.Templates{Open: func(b []byte) ([]byte, error) { return keys.Decrypt(b, "") }}}
	for _, c := range cases {
		scope := NewVars(map[string]any{})
		scope.Env = env
		got, err := Render("{{ "+c.Expr+" }}", scope)
		if c.Error != "" {
			if err == nil || !strings.Contains(c.Error, Message(err)) {
				t.Errorf("%s: got %#v, %v; want the error %q", c.Expr, got, err, c.Error)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.Expr, err)
			continue
		}
		if u, ok := got.(yaml11.Unsafe); ok {
			got = string(u)
		}
		want := c.Value
		if s, ok := want.(string); ok && strings.HasPrefix(s, "$ANSIBLE_VAULT") && !strings.Contains(c.Expr, "salt=") && !strings.Contains(c.Expr, "'saltsalt'") {
			t.Fatalf("%s: a random salt cannot be compared", c.Expr)
		}
		if got != want {
			t.Errorf("%s: got %#v, want %#v", c.Expr, got, want)
		}
	}
}

// TestVaultWithoutEnv: without Env.Vault the filters and vaulted files
// fail saying so, and plain files still read.
func TestVaultWithoutEnv(t *testing.T) {
	dir, _ := filepath.Abs("testdata/vault")
	scope := NewVars(map[string]any{})
	scope.Env = &Env{SearchPaths: []string{dir}}
	for expr, want := range map[string]string{
		"'x' | vault('pw')":                   "needs Ansible Vault",
		"lookup('unvault', 'secret.txt')":     "A vault password or secret must be specified to decrypt " + filepath.Join(dir, "secret.txt"),
		"lookup('file', 'secret.txt')":        "A vault password or secret must be specified",
		"'x' | vault('pw', wrap_object=True)": "wrap_object=True is not supported",
	} {
		if _, err := Render("{{ "+expr+" }}", scope); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", expr, err, want)
		}
	}
	if got, err := Render("{{ lookup('unvault', 'plain.txt') }}", scope); err != nil || Str(got) != "line one\nline two\n\n" {
		t.Errorf("plain file: %q %v", got, err)
	}
}
