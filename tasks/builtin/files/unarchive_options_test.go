package files

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/vault"
)

// TestUnarchiveDecrypt: a vault-encrypted controller archive is decrypted
// before it travels (decrypt, on by default), refused with Ansible's
// message when the run has no vault secret, and sent as it is with
// decrypt: false (where no handler takes it).
func TestUnarchiveDecrypt(t *testing.T) {
	files := t.TempDir()
	plainTar := filepath.Join(t.TempDir(), "a.tar")
	modtest.WriteTar(t, plainTar)
	raw, err := os.ReadFile(plainTar)
	if err != nil {
		t.Fatal(err)
	}
	vaulted, err := vault.Encrypt(raw, []byte("pw"), "")
	if err != nil {
		t.Fatal(err)
	}
	enc := filepath.Join(files, "a.tar")
	os.WriteFile(enc, vaulted, 0o644)
	env, _ := modtest.TestEnv(t, files, nil)
	var keys vault.Keyring
	keys.Add("", []byte("pw"))
	env.Decrypt = keys.DecryptFunc()
	dest := t.TempDir()
	res := modtest.RunMod(t, env, "unarchive", tasks.Args{"src": "a.tar", "dest": dest})
	if res.Failed || !res.Changed {
		t.Fatalf("decrypt: %+v", res)
	}
	for _, m := range archiveMembers {
		if m.Body != "" && modtest.ReadFile(t, filepath.Join(dest, m.Name)) != m.Body {
			t.Errorf("%s not unpacked from the decrypted archive", m.Name)
		}
	}
	if res := modtest.RunMod(t, env, "unarchive", tasks.Args{"src": "a.tar", "dest": t.TempDir(), "decrypt": false}); !res.Failed || !strings.Contains(res.Msg, "Failed to find handler") {
		t.Errorf("decrypt: false sends the encrypted bytes: %+v", res)
	}
	env.Decrypt = nil
	if res := modtest.RunMod(t, env, "unarchive", tasks.Args{"src": "a.tar", "dest": t.TempDir()}); !res.Failed || res.Msg != "A vault password or secret must be specified to decrypt "+enc {
		t.Errorf("no vault secret: %+v", res)
	}
}

// TestUnarchiveIOBufferSize: io_buffer_size only sizes reads, except 0,
// with which Ansible's unarchive reads nothing and extracts a zip again
// on every run: refused.
func TestUnarchiveIOBufferSize(t *testing.T) {
	files := t.TempDir()
	writeZip(t, filepath.Join(files, "a.zip"))
	env, _ := modtest.TestEnv(t, files, nil)
	dest := t.TempDir()
	if res := modtest.RunMod(t, env, "unarchive", tasks.Args{"src": "a.zip", "dest": dest, "io_buffer_size": 16}); res.Failed || !res.Changed {
		t.Fatalf("io_buffer_size 16: %+v", res)
	}
	_, err := unarchiveModule{}.Run(context.Background(), env, tasks.Args{"src": "a.zip", "dest": dest, "io_buffer_size": 0})
	if err == nil || !strings.Contains(err.Error(), "io_buffer_size: 0 is refused") {
		t.Errorf("io_buffer_size 0: %v", err)
	}
}
