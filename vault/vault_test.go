package vault

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDecryptRecorded opens what ansible-vault wrote (gen.sh).
func TestDecryptRecorded(t *testing.T) {
	for _, c := range []struct{ file, plain, pw, id string }{
		{"ansible-1.1.vault", "plain.txt", "pw-default", ""},
		{"ansible-1.2.vault", "plain.txt", "pw-dev", "dev"},
		{"ansible-prod.vault", "plain.txt", "pw-prod", "prod"},
		{"ansible-block16.vault", "block16.txt", "pw-default", ""},
		{"ansible-empty.vault", "empty.txt", "pw-default", ""},
	} {
		env, err := Parse(read(t, c.file))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if env.ID != c.id || env.Cipher != "AES256" {
			t.Errorf("%s: header %+v, want id %q", c.file, env, c.id)
		}
		got, err := env.Decrypt([]byte(c.pw))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if want := read(t, c.plain); !bytes.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", c.file, got, want)
		}
		if _, err := env.Decrypt([]byte("wrong")); !errors.Is(err, ErrHMAC) {
			t.Errorf("%s: wrong password gave %v, want ErrHMAC", c.file, err)
		}
	}
}

// TestEncryptMatchesAnsible re-encrypts each recorded plaintext with the
// salt ansible-vault chose: tender's output must be byte for byte what
// ansible-vault wrote.
func TestEncryptMatchesAnsible(t *testing.T) {
	for _, c := range []struct{ file, plain, pw, id string }{
		{"ansible-1.1.vault", "plain.txt", "pw-default", ""},
		{"ansible-1.2.vault", "plain.txt", "pw-dev", "dev"},
		{"ansible-block16.vault", "block16.txt", "pw-default", "default"},
		{"ansible-empty.vault", "empty.txt", "pw-default", ""},
	} {
		want := read(t, c.file)
		env, err := Parse(want)
		if err != nil {
			t.Fatal(err)
		}
		got, err := encryptSalt(read(t, c.plain), []byte(c.pw), c.id, env.salt)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: tender wrote\n%s\nansible-vault wrote\n%s", c.file, got, want)
		}
	}
}

// TestTenderSamplesOpenedByAnsible checks gen.sh's record: ansible-vault
// viewed the files tender wrote as plain.txt, and they are still vault
// files tender opens.
func TestTenderSamplesOpenedByAnsible(t *testing.T) {
	plain := read(t, "plain.txt")
	for _, c := range []struct{ file, pw, id string }{
		{"tender-1.1", "pw-default", ""},
		{"tender-1.2", "pw-dev", "dev"},
	} {
		if view := read(t, c.file+".ansible-view"); !bytes.Equal(view, plain) {
			t.Errorf("%s: ansible-vault viewed %q", c.file, view)
		}
		env, err := Parse(read(t, c.file+".vault"))
		if err != nil {
			t.Fatal(err)
		}
		if env.ID != c.id {
			t.Errorf("%s: id %q, want %q", c.file, env.ID, c.id)
		}
		if got, err := env.Decrypt([]byte(c.pw)); err != nil || !bytes.Equal(got, plain) {
			t.Errorf("%s: %q, %v", c.file, got, err)
		}
	}
}

func TestRoundTripAndHeader(t *testing.T) {
	for _, id := range []string{"", "default", "ops"} {
		data, err := Encrypt([]byte("hello\n"), []byte("pw"), id)
		if err != nil {
			t.Fatal(err)
		}
		head := strings.SplitN(string(data), "\n", 2)[0]
		want := "$ANSIBLE_VAULT;1.1;AES256"
		if id == "ops" {
			want = "$ANSIBLE_VAULT;1.2;AES256;ops"
		}
		if head != want {
			t.Errorf("id %q: header %q, want %q", id, head, want)
		}
		for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")[1:] {
			if len(l) > 80 {
				t.Errorf("line of %d characters", len(l))
			}
		}
		env, _ := Parse(data)
		if got, err := env.Decrypt([]byte("pw")); err != nil || string(got) != "hello\n" {
			t.Errorf("round trip: %q, %v", got, err)
		}
	}
	if _, err := Encrypt([]byte("x"), nil, ""); err == nil {
		t.Error("an empty password encrypted")
	}
	data, _ := Encrypt([]byte("x"), []byte("pw"), "")
	if _, err := Encrypt(data, []byte("pw"), ""); err == nil {
		t.Error("vault data was encrypted twice")
	}
}

// TestTamperedHMAC: a changed ciphertext byte fails the HMAC check.
func TestTampered(t *testing.T) {
	env, _ := Parse(read(t, "ansible-1.1.vault"))
	env.ciphertext[0] ^= 1
	if _, err := env.Decrypt([]byte("pw-default")); !errors.Is(err, ErrHMAC) {
		t.Errorf("tampered data gave %v", err)
	}
	env, err := Parse([]byte("$ANSIBLE_VAULT;1.1;AES256\nzz\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.Decrypt([]byte("pw-default")); !errors.Is(err, ErrFormat) {
		t.Errorf("bad hex gave %v", err)
	}
	if _, err := Parse([]byte("hello")); !errors.Is(err, ErrFormat) {
		t.Errorf("plain text parsed: %v", err)
	}
	if IsEncrypted([]byte("$ANSIBLE_VAULT;1.1;AES256\né")) {
		t.Error("non-ASCII data is vault data")
	}
}

func TestKeyring(t *testing.T) {
	var k Keyring
	if _, err := k.Decrypt(read(t, "ansible-1.2.vault"), "f.yml"); err == nil || !strings.Contains(err.Error(), "in file f.yml") {
		t.Errorf("no secrets: %v", err)
	}
	if k.DecryptFunc() != nil {
		t.Error("a keyring without secrets gave a decrypter")
	}
	ctx := context.Background()
	if err := k.AddSource(ctx, "", "testdata/pw-default", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Decrypt(read(t, "ansible-1.2.vault"), "secrets.yml"); err == nil ||
		err.Error() != "Decryption failed (no vault secrets were found that could decrypt) on secrets.yml" {
		t.Errorf("wrong secret: %v", err)
	}
	if err := k.AddSource(ctx, "prod", "testdata/pw-prod", nil); err != nil {
		t.Fatal(err)
	}
	// pw-dev under another id still opens dev's data: all secrets are tried.
	if err := k.AddSource(ctx, "other", "testdata/pw-dev", nil); err != nil {
		t.Fatal(err)
	}
	plain := read(t, "plain.txt")
	if got, err := k.DecryptFunc()(read(t, "ansible-prod.vault")); err != nil || !bytes.Equal(got, plain) {
		t.Errorf("DecryptFunc: %q, %v", got, err)
	}
	for _, f := range []string{"ansible-1.1.vault", "ansible-1.2.vault", "ansible-prod.vault"} {
		got, err := k.Decrypt(read(t, f), f)
		if err != nil || !bytes.Equal(got, plain) {
			t.Errorf("%s: %q, %v", f, got, err)
		}
	}
	_, id, _ := k.DecryptID(read(t, "ansible-prod.vault"), "")
	if id != "prod" {
		t.Errorf("prod data opened by %q", id)
	}
	k.Match = true
	if _, err := k.Decrypt(read(t, "ansible-1.2.vault"), "x"); err == nil {
		t.Error("vault_id_match: dev's data opened by another id's secret")
	}
	if got := k.IDs(); strings.Join(got, ",") != "default,prod,other" {
		t.Errorf("ids %v", got)
	}
	data, err := k.Encrypt([]byte("v"), "prod")
	if err != nil || !strings.HasPrefix(string(data), "$ANSIBLE_VAULT;1.2;AES256;prod\n") {
		t.Errorf("encrypt with prod: %q, %v", data, err)
	}
	if _, err := k.Encrypt([]byte("v"), "nope"); err == nil {
		t.Error("encrypted with an unknown id")
	}
}

func TestSources(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	script := filepath.Join(dir, "pass.sh")
	os.WriteFile(script, []byte("#!/bin/sh\necho '  spaced pw  '\n"), 0o755)
	pw, err := ReadPassword(ctx, script, "x")
	if err != nil || string(pw) != "  spaced pw  " {
		t.Errorf("script: %q, %v", pw, err)
	}
	client := filepath.Join(dir, "keys-client.sh")
	os.WriteFile(client, []byte("#!/bin/sh\n[ \"$1\" = --vault-id ] || exit 1\n[ \"$2\" = prod ] || exit 2\necho pw-for-$2\n"), 0o755)
	if pw, err := ReadPassword(ctx, client, "prod"); err != nil || string(pw) != "pw-for-prod" {
		t.Errorf("client script: %q, %v", pw, err)
	}
	if _, err := ReadPassword(ctx, client, "dev"); err == nil || !strings.Contains(err.Error(), "did not find a secret for vault-id=dev") {
		t.Errorf("client script without the id: %v", err)
	}
	failing := filepath.Join(dir, "fail.sh")
	os.WriteFile(failing, []byte("#!/bin/sh\nexit 3\n"), 0o755)
	if _, err := ReadPassword(ctx, failing, ""); err == nil || !strings.Contains(err.Error(), "returned non-zero (3)") {
		t.Errorf("failing script: %v", err)
	}
	if _, err := ReadPassword(ctx, filepath.Join(dir, "missing"), ""); err == nil || !strings.Contains(err.Error(), "was not found") {
		t.Errorf("missing file: %v", err)
	}
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte("\n"), 0o600)
	if _, err := ReadPassword(ctx, empty, ""); err == nil {
		t.Error("an empty password file was accepted")
	}
	var k Keyring
	asked := ""
	prompt := func(id string) ([]byte, error) { asked = id; return []byte("pw-dev\n"), nil }
	id, src := SplitID("dev@prompt")
	if err := k.AddSource(ctx, id, src, prompt); err != nil || asked != "dev" {
		t.Fatalf("prompt: %v, asked %q", err, asked)
	}
	if _, err := k.Decrypt(read(t, "ansible-1.2.vault"), ""); err != nil {
		t.Errorf("prompted secret: %v", err)
	}
	if err := k.AddSource(ctx, "", "prompt", nil); err == nil {
		t.Error("prompt without a terminal")
	}
	if id, src := SplitID("a/b"); id != "" || src != "a/b" {
		t.Errorf("SplitID: %q %q", id, src)
	}
}
