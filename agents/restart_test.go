package agents_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/agents"
)

// Restart needs a service in the manifest and a known host, and leaves
// a host another tender is deploying alone.
func TestRestartRefuses(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "h1")
	d := f.deployer(t, nil)
	if _, err := d.Restart(ctx, "h1"); err == nil || !strings.Contains(err.Error(), "names no service") {
		t.Fatalf("no service: %v", err)
	}
	manifest, err := os.ReadFile(filepath.Join(f.dir, "agent.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	f.write(t, "agent.yaml", strings.Replace(string(manifest), "playbook:", "service: demo\nplaybook:", 1))
	d = f.deployer(t, nil)
	if d.Bundle().Service != "demo" {
		t.Fatalf("service %q", d.Bundle().Service)
	}
	if _, err := d.Restart(ctx, "nobody"); err == nil || !strings.Contains(err.Error(), "no host nobody") {
		t.Fatalf("unknown host: %v", err)
	}
	if ok, _, err := f.st.Lease(ctx, "h1", "demo", "other-controller:1", agents.DefaultLeaseTTL, nil); err != nil || !ok {
		t.Fatal(ok, err)
	}
	if _, err := d.Restart(ctx, "h1"); !errors.Is(err, agents.ErrBusy) {
		t.Fatalf("busy host: %v", err)
	}
}
