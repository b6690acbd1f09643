package agents_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/transport"
)

// A typed target deploys as a host added with variables would; its key
// held in memory reaches every connection of the host (probe, deploy,
// reconnect) and no event; a misspelt variable is refused.
func TestDeployerAddTarget(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	var events bytes.Buffer
	d := f.deployer(t, func(o *agents.Options) {
		o.Events = func(e agents.Event) { json.NewEncoder(&events).Encode(e) }
	})
	secret := []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nin-memory-secret\n-----END OPENSSH PRIVATE KEY-----\n")
	if err := d.AddTarget(provision.Target{Name: "t1", Connection: "ssh", Key: transport.Key{PEM: secret}}); err != nil {
		t.Fatal(err)
	}
	if err := d.AddTarget(provision.Target{Name: "t2", Connection: "ssh", Vars: map[string]any{"ansible_conection": "local"}}); err == nil ||
		!strings.Contains(err.Error(), `unknown variable ansible_conection (did you mean "ansible_connection"?)`) {
		t.Fatalf("misspelt variable: %v", err)
	}
	if err := d.AddTarget(provision.Target{Name: "t1"}); err == nil {
		t.Fatal("a name added twice was taken")
	}
	rep, err := d.Deploy(ctx)
	if err != nil || rep.Count(agents.HostDeployed) != 1 {
		t.Fatalf("deploy: %+v %v", rep, err)
	}
	check := func(what string) {
		f.dialer.mu.Lock()
		defer f.dialer.mu.Unlock()
		if ks := f.dialer.keys["t1"]; len(ks) != 1 || !bytes.Equal(ks[0].PEM, secret) {
			t.Errorf("%s: t1 connected with keys %v", what, ks)
		}
		f.dialer.keys = nil
	}
	check("deploy")
	if _, err := d.Plan(ctx, agents.ForceRun()); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Reconnect(ctx, "t1"); err != nil {
		t.Fatal(err)
	}
	check("reconnect")
	if _, err := d.Plan(ctx); err != nil {
		t.Fatal(err)
	}
	check("probe")
	if strings.Contains(events.String(), "in-memory-secret") {
		t.Errorf("the key shows in the events:\n%s", events.String())
	}
}
