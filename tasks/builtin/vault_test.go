package builtin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	pexpr "github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/vault"
)

// recorded is a file ansible-vault wrote (vault/testdata, gen.sh).
func recorded(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "vault", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// vaultEnv is testEnv with a keyring holding the recordings' passwords.
func vaultEnv(t *testing.T, files string) *tasks.Env {
	t.Helper()
	env, _ := modtest.TestEnv(t, files, nil)
	var k vault.Keyring
	for _, s := range [][2]string{{"", "pw-default"}, {"dev", "pw-dev"}} {
		if err := k.AddSource(context.Background(), s[0], filepath.Join("..", "..", "vault", "testdata", s[1]), nil); err != nil {
			t.Fatal(err)
		}
	}
	env.Decrypt = func(b []byte) ([]byte, error) { return k.Decrypt(b, "") }
	return env
}

// copy decrypts a vaulted source by default, keeps it with decrypt: false,
// and fails naming the file when no secret opens it.
func TestCopyDecryptsVault(t *testing.T) {
	dir := t.TempDir()
	enc := filepath.Join(dir, "secret.vault")
	os.WriteFile(enc, recorded(t, "ansible-1.2.vault"), 0o644)
	env := vaultEnv(t, dir)
	plain := string(recorded(t, "plain.txt"))
	if res := modtest.RunMod(t, env, "copy", tasks.Args{"src": "secret.vault", "dest": dir + "/out"}); res.Failed || modtest.ReadFile(t, dir+"/out") != plain {
		t.Fatalf("decrypt: %+v %q", res, modtest.ReadFile(t, dir+"/out"))
	}
	if res := modtest.RunMod(t, env, "copy", tasks.Args{"src": enc, "dest": dir + "/kept", "decrypt": false}); res.Failed ||
		modtest.ReadFile(t, dir+"/kept") != string(recorded(t, "ansible-1.2.vault")) {
		t.Fatalf("decrypt=false: %+v", res)
	}
	other := filepath.Join(dir, "other.vault")
	os.WriteFile(other, recorded(t, "ansible-prod.vault"), 0o644)
	res := modtest.RunMod(t, env, "copy", tasks.Args{"src": other, "dest": dir + "/no"})
	if !res.Failed || res.Msg != "Decryption failed (no vault secrets were found that could decrypt) on "+other {
		t.Fatalf("wrong secret: %+v", res)
	}
	os.Mkdir(dir+"/tree", 0o755)
	os.WriteFile(dir+"/tree/s", recorded(t, "ansible-1.1.vault"), 0o644)
	if res := modtest.RunMod(t, env, "copy", tasks.Args{"src": dir + "/tree", "dest": dir + "/treeout"}); !res.Failed || !strings.Contains(res.Msg, "inside a directory copy") {
		t.Fatalf("tree: %+v", res)
	}
}

func TestTemplateDecryptsVault(t *testing.T) {
	dir := t.TempDir()
	data, err := vault.Encrypt([]byte("x={{ x }}\n"), []byte("pw-default"), "")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "t.j2"), data, 0o600)
	env := vaultEnv(t, dir)
	env.Render = func(text string) (string, error) {
		tpl, err := pexpr.ParseFileTemplate(text)
		if err != nil {
			return "", err
		}
		v, err := tpl.Render(pexpr.NewVars(map[string]any{"x": 1}))
		return pexpr.Str(v), err
	}
	if res := modtest.RunMod(t, env, "template", tasks.Args{"src": "t.j2", "dest": dir + "/out"}); res.Failed || modtest.ReadFile(t, dir+"/out") != "x=1\n" {
		t.Fatalf("%+v", res)
	}
	env.Decrypt = nil
	if res := modtest.RunMod(t, env, "template", tasks.Args{"src": "t.j2", "dest": dir + "/out2"}); !res.Failed || !strings.Contains(res.Msg, "A vault password or secret must be specified") {
		t.Fatalf("no secret: %+v", res)
	}
}

func TestIncludeVarsVault(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "whole.yml"), recorded(t, "ansible-1.1.vault"), 0o644)
	os.WriteFile(filepath.Join(dir, "inline.yml"), recorded(t, "ansible-inline.yml"), 0o644)
	env := vaultEnv(t, dir)
	env.FindFile = func(kind, name string) (string, error) { return filepath.Join(dir, name), nil }
	for file, want := range map[string][2]string{"whole.yml": {"api_token", "tok-é-✓"}, "inline.yml": {"api_token", "tok-inline"}} {
		res := modtest.RunMod(t, env, "include_vars", tasks.Args{"file": file})
		facts, _ := res.Data["ansible_facts"].(map[string]any)
		if res.Failed || facts[want[0]] != want[1] || facts["db_password"] != "s3cr3t-hunter2" {
			t.Errorf("%s: %+v", file, res)
		}
	}
}
