//go:build e2e

package e2e

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
	"github.com/tender-sh/tender/transport/ssh"
)

// TestCallAndCastOnTheFleet uses a real sshd host as a control plane
// uses a guest: a module called, a file put and fetched, an HTTP server
// started in the background (cast) and reached from the guest's own
// loopback (dial), its job found again by a second Caller (a restarted
// controller) and cancelled.
func TestCallAndCastOnTheFleet(t *testing.T) {
	ctx := context.Background()
	hs := fl.own(t, "py1")
	pem, err := os.ReadFile(fl.key)
	if err != nil {
		t.Fatal(err)
	}
	conns := func() *transport.Connections {
		return transport.NewConnections().Add("ssh", &ssh.Dialer{HostKeys: ssh.HostKeyAcceptNew, KnownHosts: []string{hs.known}, ConfigFile: "none", NoAgent: true}).
			Add("local", local.Dialer{})
	}
	c, err := agents.NewCaller(agents.CallOptions{Connections: conns()})
	if err != nil {
		t.Fatal(err)
	}
	guest := provision.Target{Name: "py1", Address: "127.0.0.1", Port: hs.host("py1").port, User: "root", Key: transport.Key{PEM: pem}}

	res, err := c.Call(ctx, guest, "command", map[string]any{"cmd": "hostname"})
	if err != nil || res.Data["stdout"] != "py1" {
		t.Fatalf("call: %+v %v", res, err)
	}

	dir := t.TempDir()
	src := filepath.Join(dir, "agent.conf")
	os.WriteFile(src, []byte("port=8080\n"), 0o600)
	for i, changed := range []bool{true, false} {
		res, err := c.Put(ctx, guest, src, "/etc/agent.conf", "0640")
		if err != nil || res.Changed() != changed {
			t.Fatalf("put %d: %+v %v", i, res, err)
		}
	}
	if got := hs.sh(t, "py1", "stat -c %a /etc/agent.conf; cat /etc/agent.conf"); got != "640\nport=8080\n" {
		t.Fatalf("on the host: %q", got)
	}
	if _, err := c.Get(ctx, guest, "/etc/hostname", filepath.Join(dir, "hostname")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "hostname")); strings.TrimSpace(string(b)) != "py1" {
		t.Fatalf("fetched %q", b)
	}

	// An HTTP server on the guest's loopback, started in the background.
	hs.sh(t, "py1", "mkdir -p /srv/www && echo hello from py1 > /srv/www/index.html")
	job, err := c.Cast(ctx, guest, "command", map[string]any{"argv": []any{"python3", "-m", "http.server", "8080", "--bind", "127.0.0.1", "--directory", "/srv/www"}})
	if err != nil {
		t.Fatal(err)
	}
	get := func() (string, error) {
		client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return c.Dial(ctx, guest, network, addr)
		}}}
		resp, err := client.Get("http://127.0.0.1:8080/index.html")
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	}
	var body string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if body, err = get(); err == nil {
			break
		}
	}
	if body != "hello from py1\n" {
		t.Fatalf("HTTP from the guest: %q %v", body, err)
	}

	// A restarted controller finds the job by its ID and cancels it.
	c2, err := agents.NewCaller(agents.CallOptions{Connections: conns()})
	if err != nil {
		t.Fatal(err)
	}
	again := c2.Job(guest, job.ID)
	if _, done, err := again.Status(ctx); err != nil || done {
		t.Fatalf("status of the running server: %v %v", done, err)
	}
	if stopped, err := again.Cancel(ctx); err != nil || !stopped {
		t.Fatalf("cancel: %v %v", stopped, err)
	}
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	res, err = again.Wait(wctx, 200*time.Millisecond)
	if err != nil || res.Data["rc"] != 143 || res.Status != provision.StatusFailed {
		t.Fatalf("the cancelled server: %+v %v", res, err)
	}
	if _, err := get(); err == nil {
		t.Fatal("the server still answers after its job was cancelled")
	}
	if left := hs.sh(t, "py1", "pgrep -f 'http[.]server' || true"); strings.TrimSpace(left) != "" {
		t.Fatalf("the server's process is left: %s", left)
	}
}

// TestInstallKeyOnTheFleet is a control plane's first contact with a
// host: a password login installs the controller's key (once), then the
// key alone logs in.
func TestInstallKeyOnTheFleet(t *testing.T) {
	ctx := context.Background()
	hs := fl.own(t, "py3")
	c, err := agents.NewCaller(agents.CallOptions{Connections: transport.NewConnections().
		Add("ssh", &ssh.Dialer{HostKeys: ssh.HostKeyAcceptNew, KnownHosts: []string{hs.known}, ConfigFile: "none", NoAgent: true})})
	if err != nil {
		t.Fatal(err)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	key := transport.Key{Signer: priv}
	line, err := ssh.AuthorizedKey(key, "control-plane")
	if err != nil {
		t.Fatal(err)
	}
	port := hs.host("py3").port
	withKey := provision.Target{Name: "py3", Address: "127.0.0.1", Port: port, User: "ops", Key: key}
	withPassword := provision.Target{Name: "py3", Address: "127.0.0.1", Port: port, User: "ops", Password: "ops-secret"}
	var ce *agents.CallError
	if _, err := c.Call(ctx, withKey, "ping", nil); !errors.As(err, &ce) || ce.Code != agents.CodeAuth {
		t.Fatalf("the key before it is installed: %v, want auth", err)
	}
	for i, changed := range []bool{true, false} {
		res, err := c.InstallKey(ctx, withPassword, line)
		if err != nil || res.Changed() != changed {
			t.Fatalf("install %d: %+v %v", i, res, err)
		}
	}
	res, err := c.Call(ctx, withKey, "command", map[string]any{"argv": []any{"id", "-un"}})
	if err != nil || res.Data["stdout"] != "ops" {
		t.Fatalf("the key after it is installed: %+v %v", res, err)
	}
	if got := hs.sh(t, "py3", "stat -c '%U %a' ~ops/.ssh ~ops/.ssh/authorized_keys; grep -c control-plane ~ops/.ssh/authorized_keys"); got != "ops 700\nops 600\n1\n" {
		t.Fatalf("on the host: %q", got)
	}
	// Without a user, the login user is asked for.
	withPassword.User = ""
	withPassword.Vars = map[string]any{"ansible_ssh_user": "ops"}
	if res, err := c.InstallKey(ctx, withPassword, line); err != nil || res.Changed() {
		t.Fatalf("install without User: %+v %v", res, err)
	}
}
