package yaml11

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// fakeDecrypt stands for a keyring: "$ANSIBLE_VAULT;x;<text>" opens to text
// reversed; "$ANSIBLE_VAULT;bad" fails.
func fakeDecrypt(data []byte) ([]byte, error) {
	s := strings.TrimSpace(string(data))
	if s == "$ANSIBLE_VAULT;bad" {
		return nil, errors.New("Decryption failed (no vault secrets were found that could decrypt)")
	}
	r := []rune(strings.TrimPrefix(s, "$ANSIBLE_VAULT;x;"))
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return []byte(string(r)), nil
}

func TestVaultValues(t *testing.T) {
	d := NewDecoder()
	d.Decrypt = fakeDecrypt
	got, err := d.Vars([]byte("plain: yes\nsecret: !vault |\n  $ANSIBLE_VAULT;x;terces\nlist: [!vault '$ANSIBLE_VAULT;x;52']\n"), "v.yml")
	if err != nil {
		t.Fatal(err)
	}
	// A decrypted value is text, never reinterpreted as a number or boolean.
	want := map[string]any{"plain": true, "secret": "secret", "list": []any{"25"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	// A whole vault-encrypted file is decrypted, then read as YAML.
	got, err = d.Vars([]byte("$ANSIBLE_VAULT;x;2 :a"), "whole.yml")
	if err != nil || !reflect.DeepEqual(got, map[string]any{"a": 2}) {
		t.Errorf("whole file: %#v, %v", got, err)
	}
	for src, msg := range map[string]string{
		"a: 1\nb: !vault |\n  $ANSIBLE_VAULT;bad\n": "v.yml:2:4: Decryption failed (no vault secrets were found that could decrypt)",
		"a: !vault not vault data\n":                "v.yml:1:4: a value tagged !vault does not hold vault-encrypted data",
		"$ANSIBLE_VAULT;bad":                        "v.yml: Decryption failed",
	} {
		if _, err := d.Vars([]byte(src), "v.yml"); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: error %v, want %q", src, err, msg)
		}
	}
	if _, err := Vars([]byte("$ANSIBLE_VAULT;x;2 :a"), "w.yml"); err == nil || !strings.Contains(err.Error(), "w.yml: a vault-encrypted file, but no vault secret") {
		t.Errorf("no decrypter: %v", err)
	}
}

// TestKeepVault: with KeepVault a !vault value stays its vault text,
// with no secret needed; a whole encrypted file is still decrypted.
func TestKeepVault(t *testing.T) {
	d := NewDecoder()
	d.KeepVault = true
	got, err := d.Vars([]byte("secret: !vault |\n  $ANSIBLE_VAULT;x;terces\nbad: !vault not vault data\n"), "v.yml")
	if err == nil || !strings.Contains(err.Error(), "does not hold vault-encrypted data") {
		t.Errorf("not vault data: %v %v", got, err)
	}
	got, err = d.Vars([]byte("secret: !vault |\n  $ANSIBLE_VAULT;x;terces\n"), "v.yml")
	want := map[string]any{"secret": map[string]any{"__ansible_vault": "$ANSIBLE_VAULT;x;terces\n"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v %v", got, err)
	}
	d = NewDecoder()
	d.KeepVault, d.Decrypt = true, fakeDecrypt
	got, err = d.Vars([]byte("$ANSIBLE_VAULT;x;\n1 :a"), "v.yml")
	if err != nil || !reflect.DeepEqual(got, map[string]any{"a": 1}) {
		t.Errorf("a whole file: %#v %v", got, err)
	}
}
