package agents_test

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// refusing fails to connect to the hosts it names, with their errors,
// and reaches the others locally.
type refusing map[string]error

func (r refusing) Connect(ctx context.Context, t transport.Target) (transport.Conn, error) {
	if err, ok := r[t.Name]; ok {
		return nil, transport.Unreachable(t.Name, err)
	}
	return local.Dialer{}.Connect(ctx, t)
}

// TestErrorCodes: each failed host's result carries the code of its
// cause, for a new host (deployed, so connected by the run) and for a
// deployed one (probed first): a refused login, a refused host key, a
// timeout, another unreachable host and a failed task; the rest none.
func TestErrorCodes(t *testing.T) {
	ctx := context.Background()
	hosts := []string{"auth", "hostkey", "slow", "down", "broken", "fine"}
	f := newFixture(t, hosts...)
	dialer := refusing{
		"auth":    fmt.Errorf("ssh root@h:22: %w: ssh: unable to authenticate", transport.ErrAuth),
		"hostkey": fmt.Errorf("ssh root@h:22: %w", transport.ErrHostKey),
		"slow":    fmt.Errorf("connect to h:22: %w: dial tcp: i/o timeout", transport.ErrTimeout),
		"down":    fmt.Errorf("connect to h:22: connection refused"),
	}
	f.inv.Host("broken").SetVar("fail_hosts", []any{"broken"})
	d := f.deployer(t, func(o *agents.Options) {
		o.Connections = transport.NewConnections().Add("ssh", dialer).Add("local", dialer)
	})
	want := map[string]agents.ErrorCode{"auth": agents.CodeAuth, "hostkey": agents.CodeHostKey, "slow": agents.CodeTimeout,
		"down": agents.CodeUnreachable, "broken": agents.CodeTaskFailed, "fine": ""}
	check := func(phase string, rep *agents.Report) {
		t.Helper()
		for _, h := range rep.Hosts {
			if h.Code != want[h.Host] || (h.Code == "") != (h.Outcome == agents.HostDeployed || h.Outcome == agents.HostSkipped) {
				t.Errorf("%s: %s: %s, code %q, want %q (%s)", phase, h.Host, h.Outcome, h.Code, want[h.Host], h.Error)
			}
		}
	}
	rep, err := d.Deploy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	check("new hosts", rep)
	// Record every host as deployed with this bundle, so that only a
	// probe can decide.
	sum := md5.Sum([]byte("v1"))
	files := []agents.FileRecord{{Path: filepath.Join(f.root, "opt/agent"), MD5: hex.EncodeToString(sum[:]), Size: 2, Version: "1"}}
	for _, h := range hosts {
		if ok, _, err := f.st.Lease(ctx, h, "demo", "me", time.Minute, nil); !ok || err != nil {
			t.Fatal(ok, err)
		}
		id, err := f.st.StartDeployment(ctx, agents.DeploymentRecord{Host: h, Agent: "demo", Reason: "test", Owner: "me"})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.st.FinishDeployment(ctx, id, agents.OutcomeOK, "", files); err != nil {
			t.Fatal(err)
		}
		f.st.Release(ctx, h, "demo", "me")
	}
	plan, err := d.Plan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	unreachable := 0
	for _, dec := range plan {
		if dec.Action != agents.ActionUnreachable {
			continue
		}
		unreachable++
		if dec.Code != want[dec.Host] {
			t.Errorf("probe: %s: code %q, want %q (%s)", dec.Host, dec.Code, want[dec.Host], dec.Reason)
		}
	}
	if unreachable != 4 {
		t.Errorf("%d hosts unreachable to the probe, want 4: %+v", unreachable, plan)
	}
	rep, err = d.Deploy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range rep.Hosts {
		if h.Outcome == agents.HostFailed && h.Code != want[h.Host] {
			t.Errorf("probed rollout: %s: code %q, want %q", h.Host, h.Code, want[h.Host])
		}
	}
}
