package ssh

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/crypto/ssh/agent"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

func TestAuthEncryptedKeyAsksPassphraseOnce(t *testing.T) {
	t.Parallel()
	key := newKey(t, "correct horse")
	srv := sshtest.Start(t, sshtest.Options{AuthorizedKeys: []transportKey{key.signer.PublicKey()}})
	var asked atomic.Int32
	d := &Dialer{KnownHosts: []string{knownHostsFor(t, srv)}, ConfigFile: "none", NoAgent: true, User: "u",
		Passphrase: func(file string) ([]byte, error) {
			asked.Add(1)
			if file != key.file {
				t.Errorf("asked for %s", file)
			}
			return []byte("correct horse"), nil
		}}
	tg := transport.Target{Name: "h", Host: srv.Host(), Port: srv.Port(), KeyFiles: []string{key.file}}
	for range 3 {
		c, err := d.Connect(context.Background(), tg)
		if err != nil {
			t.Fatal(err)
		}
		if res := mustRun(t, c, transport.Cmd{Script: "echo ok"}); string(res.Stdout) != "ok\n" {
			t.Fatalf("%q", res.Stdout)
		}
		c.Close()
	}
	if asked.Load() != 1 {
		t.Fatalf("passphrase asked %d times, want once", asked.Load())
	}
	bad := &Dialer{KnownHosts: d.KnownHosts, ConfigFile: "none", NoAgent: true, User: "u",
		Passphrase: func(string) ([]byte, error) { return []byte("wrong secret words"), nil }}
	_, err := bad.Connect(context.Background(), tg)
	if !errors.Is(err, transport.ErrUnreachable) || strings.Contains(err.Error(), "wrong secret words") {
		t.Fatalf("wrong passphrase: %v", err)
	}
}

func TestAuthPassword(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t, sshtest.Options{Passwords: map[string]string{"alice": "s3cret"}})
	d := &Dialer{KnownHosts: []string{knownHostsFor(t, srv)}, ConfigFile: "none", NoAgent: true}
	tg := transport.Target{Name: "h", Host: srv.Host(), Port: srv.Port(), User: "alice", Password: "s3cret"}
	c, err := d.Connect(context.Background(), tg)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	tg.Password = "not-the-password"
	_, err = d.Connect(context.Background(), tg)
	if !errors.Is(err, transport.ErrUnreachable) || !errors.Is(err, transport.ErrAuth) || errors.Is(err, transport.ErrHostKey) {
		t.Fatalf("wrong password: %v, want ErrUnreachable and ErrAuth", err)
	}
	if strings.Contains(err.Error(), "not-the-password") {
		t.Fatalf("the password leaked into the error: %v", err)
	}
}

func TestAuthAgent(t *testing.T) {
	t.Parallel()
	key := newKey(t, "")
	srv := sshtest.Start(t, sshtest.Options{AuthorizedKeys: []transportKey{key.signer.PublicKey()}})
	keyring := agent.NewKeyring()
	priv, err := parseRaw(key.file)
	if err != nil {
		t.Fatal(err)
	}
	if err := keyring.Add(agent.AddedKey{PrivateKey: priv}); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer nc.Close()
				_ = agent.ServeAgent(keyring, nc)
			}()
		}
	}()
	d := &Dialer{KnownHosts: []string{knownHostsFor(t, srv)}, ConfigFile: "none", AgentSocket: sock, User: "u"}
	tg := transport.Target{Name: "h", Host: srv.Host(), Port: srv.Port()}
	c, err := d.Connect(context.Background(), tg)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	d2 := &Dialer{KnownHosts: d.KnownHosts, ConfigFile: "none", AgentSocket: sock, NoAgent: true, User: "u"}
	if _, err := d2.Connect(context.Background(), tg); !errors.Is(err, transport.ErrUnreachable) {
		t.Fatalf("without the agent the login must fail: %v", err)
	}
}

func TestAuthWrongKeyAndUnreachable(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	tg := f.target()
	tg.KeyFiles = []string{newKey(t, "").file}
	if _, err := f.dialer.Connect(context.Background(), tg); !errors.Is(err, transport.ErrUnreachable) {
		t.Fatalf("unauthorized key: %v", err)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().(*net.TCPAddr)
	ln.Close()
	tg = f.target()
	tg.Port = addr.Port
	if _, err := f.dialer.Connect(context.Background(), tg); !errors.Is(err, transport.ErrUnreachable) {
		t.Fatalf("closed port: %v", err)
	}
}
