package ssh

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

// jumpFixture is a target behind two bastions, all accepting one key.
func jumpFixture(t *testing.T) (f *fixture, b1, b2 *sshtest.Server) {
	f = newFixture(t, sshtest.Options{})
	b1 = sshtest.Start(t, sshtest.Options{AuthorizedKeys: []transportKey{f.key.signer.PublicKey()}})
	b2 = sshtest.Start(t, sshtest.Options{AuthorizedKeys: []transportKey{f.key.signer.PublicKey()}})
	f.dialer.KnownHosts = []string{knownHostsFor(t, f.srv, b1, b2)}
	return f, b1, b2
}

func TestProxyJumpFromCommonArgs(t *testing.T) {
	t.Parallel()
	f, b1, b2 := jumpFixture(t)
	for _, args := range []string{
		"-o ProxyJump=" + b1.Addr(),
		"-o 'ProxyJump " + b1.Addr() + "," + b2.Addr() + "'",
		"-J tester@" + b2.Addr() + " -o StrictHostKeyChecking=yes",
		`-o ProxyCommand="ssh -W %h:%p -q -p ` + strconv.Itoa(b1.Port()) + " tester@" + b1.Host() + `"`,
	} {
		tg := f.target()
		tg.Options = map[string]any{OptCommonArgs: args}
		before1, before2 := b1.Stats().Channels, b2.Stats().Channels
		c, err := f.dialer.Connect(context.Background(), tg)
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		if res := mustRun(t, c, transport.Cmd{Script: "echo behind"}); string(res.Stdout) != "behind\n" {
			t.Fatalf("%s: %q", args, res.Stdout)
		}
		c.Close()
		if b1.Stats().Channels == before1 && b2.Stats().Channels == before2 {
			t.Fatalf("%s: no bastion forwarded the connection", args)
		}
	}
}

func TestSSHConfigHostAndProxyJump(t *testing.T) {
	t.Parallel()
	f, b1, _ := jumpFixture(t)
	cfg := fmt.Sprintf(`Host web
  HostName %s
  Port %d
  User tester
  IdentityFile %s
  ProxyJump gate

Host gate
  HostName %s
  Port %d
`, f.srv.Host(), f.srv.Port(), f.key.file, b1.Host(), b1.Port())
	file := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(file, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	d := &Dialer{KnownHosts: f.dialer.KnownHosts, ConfigFile: file, NoAgent: true, User: "fallback",
		KeyFiles: []string{f.key.file}}
	c, err := d.Connect(context.Background(), transport.Target{Name: "web", Host: "web"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if res := mustRun(t, c, transport.Cmd{Script: "echo via-config"}); string(res.Stdout) != "via-config\n" {
		t.Fatalf("%q", res.Stdout)
	}
	if b1.Stats().Channels == 0 {
		t.Fatal("the jump host from ssh config was not used")
	}
}

func TestResolveOverrides(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "config")
	cfg := "Host web\n  HostName 10.0.0.5\n  Port 2222\n  User cfguser\n  IdentityFile ~/.ssh/web_key\n  StrictHostKeyChecking accept-new\n"
	if err := os.WriteFile(file, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	d := &Dialer{ConfigFile: file, User: "default"}
	d.init()
	h, jumps, err := d.resolve(transport.Target{Host: "web"})
	if err != nil {
		t.Fatal(err)
	}
	if h.host != "10.0.0.5" || h.port != 2222 || h.user != "cfguser" || len(jumps) != 0 || d.policy(h) != HostKeyAcceptNew {
		t.Fatalf("from config: %+v", h)
	}
	home, _ := os.UserHomeDir()
	if len(h.extraKeys) != 1 || h.extraKeys[0] != filepath.Join(home, ".ssh/web_key") {
		t.Fatalf("identity files: %v", h.extraKeys)
	}
	h, jumps, err = d.resolve(transport.Target{Host: "web", Port: 22, User: "inv", Options: map[string]any{OptCommonArgs: "-o User=ignored -J j1,admin@j2:2200"}})
	if err != nil {
		t.Fatal(err)
	}
	if h.port != 22 || h.user != "inv" || len(jumps) != 2 || jumps[1].user != "admin" || jumps[1].port != 2200 || jumps[0].user != "default" {
		t.Fatalf("target fields must win: %+v, jumps %+v %+v", h, jumps[0], jumps[1])
	}
	d.HostKeys = HostKeyStrict
	if d.policy(h) != HostKeyStrict {
		t.Fatal("an explicit policy must win over ssh config")
	}
}

func TestJumpConnectionShared(t *testing.T) {
	t.Parallel()
	f, b1, _ := jumpFixture(t)
	tg := f.target()
	tg.Options = map[string]any{OptCommonArgs: "-J " + b1.Addr()}
	var conns []transport.Conn
	for range 5 {
		c, err := f.dialer.Connect(context.Background(), tg)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	if n := b1.Stats().Conns; n != 1 {
		t.Fatalf("5 targets behind one bastion made %d connections to it, want 1", n)
	}
	for _, c := range conns[:4] {
		c.Close()
	}
	if res := mustRun(t, conns[4], transport.Cmd{Script: "echo still"}); string(res.Stdout) != "still\n" {
		t.Fatalf("%q", res.Stdout)
	}
	conns[4].Close()
	c, err := f.dialer.Connect(context.Background(), tg)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if n := b1.Stats().Conns; n != 2 {
		t.Fatalf("after every user closed, the bastion connection must be closed and redialled: %d connections", n)
	}
}
