package ssh

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skeema/knownhosts"
	xssh "golang.org/x/crypto/ssh"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

// testKey is a client key pair written to a file.
type testKey struct {
	file   string
	signer xssh.Signer
}

// newKey makes an ed25519 key; with a passphrase, the file is encrypted.
func newKey(t testing.TB, passphrase string) testKey {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	var block *pem.Block
	if passphrase != "" {
		block, err = xssh.MarshalPrivateKeyWithPassphrase(priv, "test", []byte(passphrase))
	} else {
		block, err = xssh.MarshalPrivateKey(priv, "test")
	}
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(file, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	signer, err := xssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return testKey{file: file, signer: signer}
}

// knownHostsFor writes a known_hosts file listing the servers' keys.
func knownHostsFor(t testing.TB, servers ...*sshtest.Server) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "known_hosts")
	var data []byte
	for _, s := range servers {
		data = append(data, knownhosts.Line([]string{s.Addr()}, s.HostKey())+"\n"...)
	}
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// fixture is a server, a key it accepts and a Dialer that trusts it.
type fixture struct {
	srv    *sshtest.Server
	key    testKey
	dialer *Dialer
}

func newFixture(t testing.TB, opts sshtest.Options) *fixture {
	t.Helper()
	key := newKey(t, "")
	opts.AuthorizedKeys = append(opts.AuthorizedKeys, key.signer.PublicKey())
	srv := sshtest.Start(t, opts)
	return &fixture{srv: srv, key: key, dialer: &Dialer{
		KnownHosts: []string{knownHostsFor(t, srv)},
		ConfigFile: "none",
		NoAgent:    true,
		User:       "tester",
	}}
}

func (f *fixture) target() transport.Target {
	return transport.Target{Name: "test-host", Host: f.srv.Host(), Port: f.srv.Port(), KeyFiles: []string{f.key.file}}
}

func (f *fixture) connect(t testing.TB) *Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := f.dialer.Connect(ctx, f.target())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c.(*Conn)
}

func mustRun(t testing.TB, c transport.Conn, cmd transport.Cmd) transport.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := c.Run(ctx, cmd)
	if err != nil {
		t.Fatalf("Run(%q): %v", cmd.Script, err)
	}
	return res
}

type transportKey = xssh.PublicKey

func parseRaw(file string) (any, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return xssh.ParseRawPrivateKey(data)
}
