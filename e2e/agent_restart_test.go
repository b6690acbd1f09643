//go:build e2e

package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/transport/ssh"
)

// TestAgentRestart restarts the hello agent on a real host: a running
// agent gets a new process, a stopped one comes back, and one that
// cannot listen on its port any more is reported agent_down once the
// wait is over. The ledger's rows do not change.
func TestAgentRestart(t *testing.T) {
	ctx := context.Background()
	hs := fl.own(t, "py2")
	dialer := &ssh.Dialer{HostKeys: ssh.HostKeyAcceptNew, KnownHosts: []string{hs.known}, ConfigFile: "none"}
	d, st := libDeployerWith(t, dialer, hs, func(o *agents.Options) { o.RestartWait = 3 * time.Second }, "py2")
	if rep, err := d.Deploy(ctx); err != nil || rep.Count(agents.HostDeployed) != 1 {
		t.Fatalf("deploy: %+v %v", rep, err)
	}
	before, _, _ := st.Deployed(ctx, "py2", "hello")
	pid := func() string { return strings.TrimSpace(hs.sh(t, "py2", "cat /var/run/hello.pid")) }
	first := pid()
	res, err := d.Restart(ctx, "py2")
	if err != nil || !res.Up || res.Code != "" {
		t.Fatalf("restart: %+v %v", res, err)
	}
	if second := pid(); second == first || second == "" {
		t.Fatalf("the agent's process is %q before and %q after the restart", first, second)
	}
	hs.sh(t, "py2", "/etc/init.d/hello stop")
	if res, err := d.Restart(ctx, "py2"); err != nil || !res.Up {
		t.Fatalf("restart of a stopped agent: %+v %v", res, err)
	}
	if out := hs.sh(t, "py2", "/etc/init.d/hello status; echo rc=$?"); !strings.Contains(out, "rc=0") {
		t.Fatalf("after the restart: %s", out)
	}
	// The agent now listens elsewhere: restarted, it never answers on
	// the bundle's port.
	hs.sh(t, "py2", "sed -i s/7070/7171/ /etc/default/hello")
	start := time.Now()
	res, err = d.Restart(ctx, "py2")
	if err != nil || res.Up || res.Code != agents.CodeAgentDown || !strings.Contains(res.Error, "port 7070 is not listening") {
		t.Fatalf("restart of an agent that does not answer: %+v %v", res, err)
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("the restart took %v with a 3s wait", took)
	}
	after, _, _ := st.Deployed(ctx, "py2", "hello")
	if len(after) != len(before) || after[0].DeployedAt != before[0].DeployedAt {
		t.Errorf("the ledger changed: %+v, was %+v", after, before)
	}
}
