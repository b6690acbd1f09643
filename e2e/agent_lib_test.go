//go:build e2e

package e2e

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/provision/transport"
	"github.com/tender-sh/tender/provision/transport/local"
	"github.com/tender-sh/tender/provision/transport/ssh"
	"github.com/tender-sh/tender/tasks/builtin"
)

// tally counts connections and scripts per host over a real transport.
type tally struct {
	transport.Dialer
	mu            sync.Mutex
	connects, run map[string]int
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
	c.connects, c.run = map[string]int{}, map[string]int{}
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
	return t.Conn.Run(ctx, cmd)
}

// TestAgentLibraryNoOpIsOneRoundTrip embeds agents as a control plane
// does: hosts added at run time, no inventory file. After a deploy, the
// next rollout costs each host one connection and one script, nothing
// more.
func TestAgentLibraryNoOpIsOneRoundTrip(t *testing.T) {
	ctx := context.Background()
	v1, _ := helloBundles(t)
	reg := builtin.Registry()
	b, err := agents.LoadBundle(v1, agents.LoadOptions{Modules: (&provision.Runner{Modules: reg}).ModuleNames()})
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	dialer := &tally{Dialer: &ssh.Dialer{HostKeys: ssh.HostKeyAcceptNew, KnownHosts: []string{filepath.Join(fl.dir, "known_hosts")}, ConfigFile: "none"}}
	dialer.reset()
	d, err := agents.New(st, b, nil, agents.Options{Modules: reg, Dialer: dialer, Local: local.Dialer{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range agentHosts {
		h := fl.host(name)
		if err := d.AddHost(name, map[string]any{"ansible_host": "127.0.0.1", "ansible_port": h.port,
			"ansible_user": "root", "ansible_ssh_private_key_file": fl.key}); err != nil {
			t.Fatal(err)
		}
	}
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
	}
	t.Logf("no-op rollout of %d hosts over SSH: %v (1 connection + 1 round trip per host)", len(agentHosts), took)
	res, err := d.Reconnect(ctx, "py1")
	if err != nil || res.Outcome != agents.HostDeployed {
		t.Errorf("reconnect: %+v %v", res, err)
	}
}
