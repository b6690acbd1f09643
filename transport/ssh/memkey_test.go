package ssh

import (
	"context"
	"crypto"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
	xssh "golang.org/x/crypto/ssh"
)

// A key held in memory logs in as its file would: as PEM (plain or
// encrypted with its passphrase), as an ssh.Signer and as a
// crypto.Signer; a wrong passphrase or a signer of another type fails
// without showing the key or the passphrase.
func TestAuthKeyInMemory(t *testing.T) {
	t.Parallel()
	plain, locked := newKey(t, ""), newKey(t, "open sesame")
	srv := sshtest.Start(t, sshtest.Options{AuthorizedKeys: []transportKey{plain.signer.PublicKey(), locked.signer.PublicKey()}})
	d := &Dialer{KnownHosts: []string{knownHostsFor(t, srv)}, ConfigFile: "none", NoAgent: true, User: "u"}
	read := func(file string) []byte {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	raw, err := parseRaw(plain.file)
	if err != nil {
		t.Fatal(err)
	}
	ok := map[string]transport.Key{
		"pem":           {PEM: read(plain.file)},
		"encrypted pem": {PEM: read(locked.file), Passphrase: []byte("open sesame")},
		"ssh.Signer":    {Signer: plain.signer},
		"crypto.Signer": {Signer: raw.(crypto.Signer)},
	}
	for name, k := range ok {
		tg := transport.Target{Name: "h", Host: srv.Host(), Port: srv.Port(), Keys: []transport.Key{k}}
		c, err := d.Connect(context.Background(), tg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res := mustRun(t, c, transport.Cmd{Script: "echo ok"}); string(res.Stdout) != "ok\n" {
			t.Fatalf("%s: %q", name, res.Stdout)
		}
		c.Close()
	}
	bad := map[string]struct {
		k    transport.Key
		want string
	}{
		"no passphrase":    {transport.Key{PEM: read(locked.file)}, "is encrypted and no passphrase was given"},
		"wrong passphrase": {transport.Key{PEM: read(locked.file), Passphrase: []byte("close sesame")}, "cannot decrypt it"},
		"not a key":        {transport.Key{PEM: []byte("-----BEGIN NONSENSE-----\n")}, "private key (pem:"},
		"empty":            {transport.Key{}, "is empty"},
		"other signer":     {transport.Key{Signer: "a string"}, "must be an ssh.Signer or a crypto.Signer"},
	}
	for name, c := range bad {
		tg := transport.Target{Name: "h", Host: srv.Host(), Port: srv.Port(), Keys: []transport.Key{c.k}}
		_, err := d.Connect(context.Background(), tg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%s: %v, want %q", name, err, c.want)
		}
		if strings.Contains(err.Error(), "sesame") || strings.Contains(err.Error(), "PRIVATE KEY") {
			t.Fatalf("%s: the error shows the secret: %v", name, err)
		}
	}
	// A key the server does not know is a refused login.
	other := newKey(t, "")
	tg := transport.Target{Name: "h", Host: srv.Host(), Port: srv.Port(), Keys: []transport.Key{{PEM: read(other.file)}}}
	if _, err := d.Connect(context.Background(), tg); !errors.Is(err, transport.ErrAuth) {
		t.Fatalf("unknown key: %v, want ErrAuth", err)
	}
}

// A Key printed by mistake shows its fingerprint, never the key, and
// two keys are told apart by their ID.
func TestKeyHidesItself(t *testing.T) {
	t.Parallel()
	a, b := newKey(t, ""), newKey(t, "")
	pa, _ := os.ReadFile(a.file)
	pb, _ := os.ReadFile(b.file)
	ka, kb := transport.Key{PEM: pa, Passphrase: []byte("pw-hidden")}, transport.Key{PEM: pb}
	for _, s := range []string{fmt.Sprint(ka), fmt.Sprintf("%v %+v %#v", ka, ka, ka), fmt.Sprintf("%v", []transport.Key{ka})} {
		if strings.Contains(s, "PRIVATE") || strings.Contains(s, "pw-hidden") {
			t.Fatalf("printed key shows its secret: %s", s)
		}
	}
	if ka.ID() == kb.ID() || ka.ID() != (transport.Key{PEM: pa, Passphrase: []byte("pw-hidden")}).ID() {
		t.Fatal("IDs do not tell keys apart")
	}
	sa, sb := transport.Key{Signer: a.signer}, transport.Key{Signer: b.signer}
	if sa.ID() == sb.ID() || sa.ID() != (transport.Key{Signer: a.signer}).ID() {
		t.Fatalf("signer IDs: %s %s", sa.ID(), sb.ID())
	}
	raw, _ := parseRaw(a.file)
	if id := (transport.Key{Signer: raw.(crypto.Signer)}).ID(); id == sb.ID() || !strings.HasPrefix(id, "signer:") {
		t.Fatalf("crypto.Signer ID %s", id)
	}
}

// AuthorizedKey gives the line sshd takes for a key held in memory.
func TestAuthorizedKey(t *testing.T) {
	t.Parallel()
	k := newKey(t, "pass phrase")
	pem, _ := os.ReadFile(k.file)
	line, err := AuthorizedKey(transport.Key{PEM: pem, Passphrase: []byte("pass phrase")}, "controller@example")
	if err != nil {
		t.Fatal(err)
	}
	pub, comment, _, _, err := xssh.ParseAuthorizedKey([]byte(line))
	if err != nil || comment != "controller@example" || string(pub.Marshal()) != string(k.signer.PublicKey().Marshal()) {
		t.Fatalf("%q: %v", line, err)
	}
	if _, err := AuthorizedKey(transport.Key{PEM: pem}, ""); err == nil {
		t.Fatal("an encrypted key without its passphrase gave a line")
	}
	if line, err := AuthorizedKey(transport.Key{Signer: k.signer}, ""); err != nil || strings.Count(line, " ") != 1 {
		t.Fatalf("signer: %q %v", line, err)
	}
}
