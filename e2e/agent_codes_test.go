//go:build e2e

package e2e

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
	"github.com/tender-sh/tender/transport/ssh"
)

// TestAgentErrorCodesOnTheFleet deploys to typed targets that fail in
// each way a control plane tells apart, on real sshd hosts, and checks
// the stable code of each host's result and of its host_finished event:
// a key sshd does not take (auth), a host key that is not the one
// known (host_key), a closed port (unreachable), a host that accepts
// TCP but never speaks SSH (timeout), and a task that fails (task_failed).
// A good target beside them deploys.
func TestAgentErrorCodesOnTheFleet(t *testing.T) {
	ctx := context.Background()
	hs := fl.own(t, "py1", "py2")
	py1, py2 := hs.host("py1"), hs.host("py2")
	pem, err := os.ReadFile(fl.key)
	if err != nil {
		t.Fatal(err)
	}
	// A crypto.Signer sshd has never seen.
	_, stranger, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	// known_hosts naming another key for py2.
	other := filepath.Join(t.TempDir(), "other")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", other).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v %s", err, out)
	}
	pub, _ := os.ReadFile(other + ".pub")
	wrongKnown := filepath.Join(t.TempDir(), "known_hosts")
	os.WriteFile(wrongKnown, []byte(fmt.Sprintf("[127.0.0.1]:%d %s", py2.port, pub)), 0o600)
	// A closed port.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	// A port that accepts and never answers.
	mute, _ := net.Listen("tcp", "127.0.0.1:0")
	defer mute.Close()
	go func() {
		for {
			c, err := mute.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()

	v1, _ := helloBundles(t)
	reg := builtin.Registry()
	b, err := agents.LoadBundle(v1, agents.LoadOptions{Modules: reg})
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	conns := transport.NewConnections().
		Add("ssh", &ssh.Dialer{HostKeys: ssh.HostKeyAcceptNew, KnownHosts: []string{hs.known}, ConfigFile: "none", NoAgent: true, HandshakeTimeout: 3 * time.Second}).
		Add("strict_ssh", &ssh.Dialer{HostKeys: ssh.HostKeyStrict, KnownHosts: []string{wrongKnown}, ConfigFile: "none", NoAgent: true}).
		Add("local", local.Dialer{})
	finished := map[string]agents.ErrorCode{}
	d, err := agents.New(st, b, nil, agents.Options{Connections: conns, Events: func(e agents.Event) {
		if e.Kind == agents.HostFinished && e.Result != nil {
			finished[e.Host] = e.Result.Code
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	key := transport.Key{PEM: pem}
	for _, tg := range []provision.Target{
		{Name: "good", Address: "127.0.0.1", Port: py1.port, User: "root", Key: key},
		{Name: "auth", Address: "127.0.0.1", Port: py2.port, User: "root", Key: transport.Key{Signer: stranger}},
		{Name: "host_key", Address: "127.0.0.1", Port: py2.port, User: "root", Key: key, Connection: "strict_ssh"},
		{Name: "unreachable", Address: "127.0.0.1", Port: closed, User: "root", Key: key},
		{Name: "timeout", Address: "127.0.0.1", Port: mute.Addr().(*net.TCPAddr).Port, User: "root", Key: key},
		{Name: "task_failed", Address: "127.0.0.1", Port: py2.port, User: "root", Key: key, Become: true, BecomeMethod: "no_such_method"},
	} {
		if err := d.AddTarget(tg); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := d.Deploy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range rep.Hosts {
		want := agents.ErrorCode(h.Host)
		if h.Host == "good" {
			if h.Outcome != agents.HostDeployed || h.Code != "" {
				t.Errorf("good: %s %s %s", h.Outcome, h.Code, h.Error)
			}
			continue
		}
		if h.Outcome != agents.HostFailed || h.Code != want || finished[h.Host] != want {
			t.Errorf("%s: outcome %s, code %q (event %q), want failed and %q: %s", h.Host, h.Outcome, h.Code, finished[h.Host], want, h.Error)
		}
		if strings.Contains(h.Error, "PRIVATE KEY") {
			t.Errorf("%s: the error shows the key: %s", h.Host, h.Error)
		}
	}
	if len(rep.Hosts) != 6 {
		t.Errorf("%d hosts in the report, want 6", len(rep.Hosts))
	}
}
