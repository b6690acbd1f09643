//go:build e2e

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
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

// tally counts connections and scripts per host over a real transport.
type tally struct {
	transport.Dialer
	mu            sync.Mutex
	connects, run map[string]int
	shells        map[string]int64 // persistent-shell Runs, as the SSH Conn counts them
}

func (c *tally) Connect(ctx context.Context, t transport.Target) (transport.Conn, error) {
	conn, err := c.Dialer.Connect(ctx, t)
	c.mu.Lock()
	c.connects[t.Name]++
	c.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return &tallyConn{Conn: conn, c: c, host: t.Name}, nil
}

func (c *tally) reset() {
	c.mu.Lock()
	c.connects, c.run, c.shells = map[string]int{}, map[string]int{}, map[string]int64{}
	c.mu.Unlock()
}

type tallyConn struct {
	transport.Conn
	c    *tally
	host string
}

func (t *tallyConn) Run(ctx context.Context, cmd transport.Cmd) (transport.Result, error) {
	t.c.mu.Lock()
	t.c.run[t.host]++
	t.c.mu.Unlock()
	res, err := t.Conn.Run(ctx, cmd)
	if sc, ok := t.Conn.(*ssh.Conn); ok {
		t.c.mu.Lock()
		t.c.shells[t.host] += sc.Stats().ShellRuns
		t.c.mu.Unlock()
	}
	return res, err
}

// libDeployer makes a Deployer of the hello bundle (version 1) with a
// fresh ledger, through the library as a control plane would, and adds
// the named fleet hosts to it at run time as typed targets, their key
// held in memory.
func libDeployer(t *testing.T, dialer transport.Dialer, hs *hostSet, hosts ...string) (*agents.Deployer, *store.Store) {
	t.Helper()
	return libDeployerWith(t, dialer, hs, nil, hosts...)
}

// libDeployerWith is libDeployer with mod applied to the options.
func libDeployerWith(t *testing.T, dialer transport.Dialer, hs *hostSet, mod func(*agents.Options), hosts ...string) (*agents.Deployer, *store.Store) {
	t.Helper()
	v1, _ := helloBundles(t)
	reg := builtin.Registry()
	b, err := agents.LoadBundle(v1, agents.LoadOptions{Modules: reg})
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	opts := agents.Options{Modules: reg, Connections: transport.NewConnections().Add("ssh", dialer).Add("local", local.Dialer{})}
	if mod != nil {
		mod(&opts)
	}
	d, err := agents.New(st, b, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	// The key is given in memory, as a control plane holds it, not as a
	// file.
	pem, err := os.ReadFile(fl.key)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range hosts {
		h := hs.host(name)
		if err := d.AddTarget(provision.Target{Name: name, Address: "127.0.0.1", Port: h.port, User: "root",
			Key: transport.Key{PEM: pem}}); err != nil {
			t.Fatal(err)
		}
	}
	return d, st
}

// TestAgentLibraryNoOpIsOneRoundTrip embeds agents as a control plane
// does: hosts added at run time, no inventory file. After a deploy, the
// next rollout costs each host one connection and one script, nothing
// more.
func TestAgentLibraryNoOpIsOneRoundTrip(t *testing.T) {
	ctx := context.Background()
	hs := fl.own(t, agentHosts...)
	dialer := &tally{Dialer: &ssh.Dialer{HostKeys: ssh.HostKeyAcceptNew, KnownHosts: []string{hs.known}, ConfigFile: "none"}}
	dialer.reset()
	d, _ := libDeployer(t, dialer, hs, agentHosts...)
	rep, err := d.Deploy(ctx)
	if err != nil || rep.Count(agents.HostDeployed) != len(agentHosts) {
		t.Fatalf("first deploy: %+v %v", rep, err)
	}
	dialer.reset()
	start := time.Now()
	rep, err = d.Deploy(ctx)
	took := time.Since(start)
	if err != nil || rep.Count(agents.HostSkipped) != len(agentHosts) {
		t.Fatalf("no-op deploy: %+v %v", rep, err)
	}
	for _, name := range agentHosts {
		if dialer.connects[name] != 1 || dialer.run[name] != 1 {
			t.Errorf("%s: %d connections, %d scripts; want 1 and 1", name, dialer.connects[name], dialer.run[name])
		}
		// The check is the connection's only script: it runs without
		// the persistent shell and its private directory.
		if dialer.shells[name] != 0 {
			t.Errorf("%s: the check ran on a persistent shell", name)
		}
	}
	t.Logf("no-op rollout of %d hosts over SSH: %v (1 connection + 1 round trip per host)", len(agentHosts), took)
	res, err := d.Reconnect(ctx, "py1")
	if err != nil || res.Outcome != agents.HostDeployed {
		t.Errorf("reconnect: %+v %v", res, err)
	}
}

// TestAgentHostHangsMidDeploy freezes a host (docker pause: its TCP stack
// still answers, its sshd does not) while its agent is deployed. The deploy
// fails within the keepalive bound, the ledger gains nothing, and once the
// host thaws no half-written file is left beside the agent's files; the
// next deploy succeeds.
func TestAgentHostHangsMidDeploy(t *testing.T) {
	ctx := context.Background()
	hs := fl.own(t, "py3")
	dialer := &ssh.Dialer{HostKeys: ssh.HostKeyAcceptNew, KnownHosts: []string{hs.known},
		ConfigFile: "none", KeepaliveInterval: time.Second, KeepaliveCountMax: 2}
	d, st := libDeployer(t, dialer, hs, "py3")
	victim := hs.host("py3")
	// The host freezes once the agent's files are in place (its settings
	// file, written after them, appears): mid-deploy, in the service
	// tasks. A cut during an upload is TestAgentNetworkCutMidTransfer's
	// case.
	thawed := make(chan struct{})
	var frozen time.Time // when docker pause returned
	go func() {
		defer close(thawed)
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if exec.Command("docker", "exec", victim.container, "test", "-e", "/etc/default/hello").Run() == nil {
				break
			}
		}
		exec.Command("docker", "pause", victim.container).Run()
		frozen = time.Now()
		time.Sleep(8 * time.Second)
		exec.Command("docker", "unpause", victim.container).Run()
	}()
	res, err := d.Reconnect(ctx, "py3")
	failed := time.Now()
	<-thawed
	took := failed.Sub(frozen)
	if err != nil || res.Outcome != agents.HostFailed {
		t.Fatalf("deploy to a frozen host: %+v %v", res, err)
	}
	t.Logf("frozen host failed %v after the freeze: %s", took.Round(time.Millisecond), res.Error)
	if took > 8*time.Second {
		t.Errorf("the frozen host took %v to fail, want within the keepalive bound", took)
	}
	if _, ok, _ := st.Deployed(ctx, "py3", "hello"); ok {
		t.Error("a failed deploy wrote ledger rows")
	}
	time.Sleep(time.Second) // sshd notices the dead connection and cleans up
	// Temporary files of tender's transfers start with .tender-.
	if left := strings.TrimSpace(hs.sh(t, "py3", "ls -A /opt/hello/bin /etc/init.d /etc/default | grep -F .tender || true")); left != "" {
		t.Errorf("left beside the agent's files:\n%s", left)
	}
	res, err = d.Reconnect(ctx, "py3")
	if err != nil || res.Outcome != agents.HostDeployed {
		t.Errorf("deploy after the thaw: %+v %v", res, err)
	}
}
