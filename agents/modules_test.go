package agents_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
)

// TestModulesGivenOnce: a Deployer without Options.Modules deploys with
// the registry its bundle was loaded with; one given a registry that
// lacks a module of the bundle's playbook is refused before any host is
// touched.
func TestModulesGivenOnce(t *testing.T) {
	f := newFixture(t, "h1")
	b, err := agents.LoadBundle(f.dir, agents.LoadOptions{Modules: builtin.Registry()})
	if err != nil {
		t.Fatal(err)
	}
	conns := transport.NewConnections().Add("local", f.dialer)
	narrow, err := builtin.Registry().Restrict("copy")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := agents.New(f.st, b, f.inv, agents.Options{Modules: narrow, Connections: conns}); err == nil ||
		!strings.Contains(err.Error(), "uses modules that Options.Modules does not allow: fail") {
		t.Fatalf("a registry without fail: %v", err)
	}
	if runs := f.dialer.take(); len(runs) != 0 {
		t.Fatalf("refusing the registry ran scripts: %v", runs)
	}
	d, err := agents.New(f.st, b, f.inv, agents.Options{Connections: conns})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := d.Deploy(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(rep); got != "h1=new/deployed" {
		t.Fatalf("deploy with the bundle's registry: %s %+v", got, rep.Hosts)
	}
}
