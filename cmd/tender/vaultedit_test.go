package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/vault"
)

// editorEnv makes EDITOR a script (in a directory whose name needs
// quoting) that logs the file it is given and its directory's and its own
// modes to log, then writes $NEW into it when NEW is set; temporary
// directories go to a fresh TMPDIR, returned.
func editorEnv(t *testing.T, extra string) (log, tmpdir string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "my editor")
	tmpdir = t.TempDir()
	os.MkdirAll(dir, 0o755)
	script := filepath.Join(dir, "ed.sh")
	log = filepath.Join(dir, "log")
	os.WriteFile(script, []byte("#!/bin/sh\nf=\"$1\"\nprintf '%s\\n' \"$f\" >\""+log+"\"\nstat -c %a \"$f\" \"$(dirname \"$f\")\" >>\""+log+"\"\n"+extra+"\nif [ -n \"${NEW+x}\" ]; then printf '%s' \"$NEW\" >\"$f\"; fi\n"), 0o755)
	t.Setenv("EDITOR", "'"+script+"'")
	t.Setenv("TMPDIR", tmpdir)
	return log, tmpdir
}

func noTemps(t *testing.T, tmpdir string) {
	t.Helper()
	if left, _ := os.ReadDir(tmpdir); len(left) != 0 {
		t.Errorf("temporary files left in %s: %v", tmpdir, left)
	}
}

func openWith(t *testing.T, f, pass string) (string, *vault.Envelope) {
	t.Helper()
	env, err := vault.Parse(mustRead(t, f))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := env.Decrypt([]byte(pass))
	if err != nil {
		t.Fatalf("%s with %s: %v", f, pass, err)
	}
	return string(plain), env
}

func TestVaultCreateAndEdit(t *testing.T) {
	dir := t.TempDir()
	pw, pw2 := filepath.Join(dir, "pw"), filepath.Join(dir, "pw2")
	os.WriteFile(pw, []byte("pw-1\n"), 0o600)
	os.WriteFile(pw2, []byte("pw-2\n"), 0o600)
	f := filepath.Join(dir, "sub", "secret.yml")
	log, tmpdir := editorEnv(t, "")

	t.Setenv("NEW", "a: hunter2\n")
	code, _, e := runCLI(t, "vault", "create", "--vault-id", "ops@"+pw, f)
	if code != 0 || !strings.Contains(e, "[WARNING]: "+filepath.Dir(f)+" does not exist, creating...") {
		t.Fatalf("create: %d %s", code, e)
	}
	if plain, env := openWith(t, f, "pw-1"); plain != "a: hunter2\n" || env.ID != "ops" {
		t.Errorf("created %q under id %q", plain, env.ID)
	}
	if fi, _ := os.Stat(f); fi.Mode().Perm() != 0o600 {
		t.Errorf("created with mode %o, want 0600", fi.Mode().Perm())
	}
	lines := strings.Fields(string(mustRead(t, log)))
	if len(lines) != 3 || filepath.Ext(lines[0]) != ".yml" || lines[1] != "600" || lines[2] != "700" {
		t.Errorf("the editor saw %q: want a .yml file, mode 600, in a 700 directory", lines)
	}
	noTemps(t, tmpdir)
	if code, _, e := runCLI(t, "vault", "create", "--vault-id", "ops@"+pw, f); code == 0 || !strings.Contains(e, "exists, please use 'edit' instead") {
		t.Errorf("create over a file: %d %s", code, e)
	}

	// An unchanged edit leaves the file as it was, byte for byte.
	os.Unsetenv("NEW")
	before := mustRead(t, f)
	if code, _, e := runCLI(t, "vault", "edit", "--vault-id", "ops@"+pw, f); code != 0 || !bytes.Equal(mustRead(t, f), before) {
		t.Errorf("unchanged edit: %d %s; rewritten: %v", code, e, !bytes.Equal(mustRead(t, f), before))
	}
	// A change is saved with the secret that opened the file and under
	// its header's vault id, whatever secret comes first.
	os.Chmod(f, 0o640)
	t.Setenv("NEW", "a: changed\n")
	if code, _, e := runCLI(t, "vault", "edit", "--vault-id", "dev@"+pw2, "--vault-id", "ops@"+pw, f); code != 0 {
		t.Fatalf("edit: %d %s", code, e)
	}
	if plain, env := openWith(t, f, "pw-1"); plain != "a: changed\n" || env.ID != "ops" {
		t.Errorf("edited %q under id %q", plain, env.ID)
	}
	if fi, _ := os.Stat(f); fi.Mode().Perm() != 0o640 {
		t.Errorf("edit changed the mode to %o", fi.Mode().Perm())
	}
	// A 1.1 file stays 1.1 (no vault id), as ansible-vault keeps the header.
	old := filepath.Join(dir, "old.txt")
	data, _ := vault.Encrypt([]byte("x\n"), []byte("pw-2"), "")
	os.WriteFile(old, data, 0o600)
	if code, _, e := runCLI(t, "vault", "edit", "--vault-id", "ops@"+pw, "--vault-id", "dev@"+pw2, old); code != 0 {
		t.Fatalf("edit 1.1: %d %s", code, e)
	}
	if plain, env := openWith(t, old, "pw-2"); plain != "a: changed\n" || env.Version != "1.1" || env.ID != "" {
		t.Errorf("1.1 file edited to %q, version %s id %q", plain, env.Version, env.ID)
	}
	noTemps(t, tmpdir)

	// An editor that cannot start: an error, nothing written, nothing left.
	before = mustRead(t, f)
	t.Setenv("EDITOR", filepath.Join(dir, "no-such-editor")+" -x")
	if code, _, e := runCLI(t, "vault", "edit", "--vault-id", "ops@"+pw, f); code == 0 || !strings.Contains(e, "Unable to execute the command") || !bytes.Equal(mustRead(t, f), before) {
		t.Errorf("missing editor: %d %s", code, e)
	}
	noTemps(t, tmpdir)
}

// TestVaultEditTerminated: a SIGTERM while the editor runs abandons the
// edit: the file is unchanged and the plaintext's directory removed.
func TestVaultEditTerminated(t *testing.T) {
	dir := t.TempDir()
	pw, f := filepath.Join(dir, "pw"), filepath.Join(dir, "s.yml")
	os.WriteFile(pw, []byte("pw-1\n"), 0o600)
	data, _ := vault.Encrypt([]byte("a: 1\n"), []byte("pw-1"), "")
	os.WriteFile(f, data, 0o600)
	_, tmpdir := editorEnv(t, "kill -TERM $PPID; sleep 0.3")
	t.Setenv("NEW", "a: 2\n")
	code, _, e := runCLI(t, "vault", "edit", "--vault-password-file", pw, f)
	if code == 0 || !strings.Contains(e, "abandoned") || !bytes.Equal(mustRead(t, f), data) {
		t.Errorf("terminated edit: %d %s", code, e)
	}
	noTemps(t, tmpdir)
}

// TestErrorLinesCensored: the ERROR line blanks what the keyring
// decrypted.
func TestErrorLinesCensored(t *testing.T) {
	app := newApp(&bytes.Buffer{}, &bytes.Buffer{})
	k := &vault.Keyring{Censor: &vault.Censor{}}
	k.Censor.Add("hunter2-secret")
	app.Metadata = map[string]any{vaultKey: k}
	got := errorText(app, errors.New(`bad value "hunter2-secret" here`))
	if strings.Contains(got, "hunter2") || !strings.Contains(got, vault.Mask) {
		t.Errorf("error text %q", got)
	}
	if got := errorText(cli.NewApp(), errors.New("plain")); got != "plain" {
		t.Errorf("without a keyring: %q", got)
	}
}
