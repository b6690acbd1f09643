package playbooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/vault"
)

// A play's !vault values are decrypted with Options.Decrypt; a vaulted
// task file too. Without it the error names file:line:col.
func TestLoadVault(t *testing.T) {
	var keys vault.Keyring
	if err := keys.Add("dev", []byte("pw-dev")); err != nil {
		t.Fatal(err)
	}
	secret, err := keys.Encrypt([]byte("s3cr3t"), "dev")
	if err != nil {
		t.Fatal(err)
	}
	tasksFile, err := keys.Encrypt([]byte("- debug: msg=from-vaulted-file\n"), "dev")
	if err != nil {
		t.Fatal(err)
	}
	inline := "!vault |\n        " + strings.ReplaceAll(strings.TrimSpace(string(secret)), "\n", "\n        ")
	dir := writeFiles(t, map[string]string{
		"pb.yml": "- hosts: all\n  vars:\n    pw: " + inline + "\n  tasks:\n    - import_tasks: t.yml\n",
	})
	if err := os.WriteFile(filepath.Join(dir, "t.yml"), tasksFile, 0o600); err != nil {
		t.Fatal(err)
	}
	decrypt := func(b []byte) ([]byte, error) { return keys.Decrypt(b, "") }
	pb, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: testModules, Decrypt: decrypt})
	if err != nil {
		t.Fatal(err)
	}
	if got := pb.Plays[0].Vars["pw"]; got != "s3cr3t" {
		t.Errorf("pw = %#v", got)
	}
	if n := len(pb.Plays[0].Tasks); n != 1 {
		t.Errorf("%d tasks from the vaulted file", n)
	}
	_, err = Load(filepath.Join(dir, "pb.yml"), Options{Modules: testModules})
	if err == nil || !strings.Contains(err.Error(), "pb.yml:3:9") || !strings.Contains(err.Error(), "no vault secret was given") {
		t.Errorf("without secrets: %v", err)
	}
}
