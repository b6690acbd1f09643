package agents_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
)

// TestSandboxBoundsBundlesAndDeploys: LoadBundle refuses a bundle whose
// manifest or tracked files the policy does not let it read (a symlink
// out of the bundle included), and a Deployer's runs obey its policy:
// the same deploy succeeds when the bundle may be read and fails the
// host, naming the policy, when it may not or when its hosts are the
// controller and local is not allowed.
func TestSandboxBoundsBundlesAndDeploys(t *testing.T) {
	f := newFixture(t, "h1")
	reg := builtin.Registry()
	if _, err := agents.LoadBundle(f.dir, agents.LoadOptions{Modules: reg, Sandbox: &sandbox.Policy{Name: "sb", Read: []string{f.root}}}); err == nil ||
		!strings.Contains(err.Error(), "the controller sandbox sb does not allow reading "+filepath.Join(f.dir, agents.ManifestName)) {
		t.Errorf("manifest outside: %v", err)
	}
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("s"), 0o600)
	os.Symlink(secret, filepath.Join(f.dir, "link.bin"))
	good, _ := os.ReadFile(filepath.Join(f.dir, agents.ManifestName))
	bad := strings.Replace(string(good), "files:\n", "files:\n  - {src: link.bin, dest: /x/y}\n", 1)
	os.WriteFile(filepath.Join(f.dir, agents.ManifestName), []byte(bad), 0o644)
	_, err := agents.LoadBundle(f.dir, agents.LoadOptions{Modules: reg, Sandbox: &sandbox.Policy{Name: "sb", Read: []string{f.dir}}})
	if err == nil || !strings.Contains(err.Error(), "agent.yaml:5:11: src: the controller sandbox sb does not allow reading "+filepath.Join(f.dir, "link.bin")+", which leads to "+secret) {
		t.Errorf("tracked file out: %v", err)
	}
	os.WriteFile(filepath.Join(f.dir, agents.ManifestName), good, 0o644)

	for _, c := range []struct {
		pol  *sandbox.Policy
		want string
	}{
		{&sandbox.Policy{Name: "sb", Local: true}, "does not allow reading " + filepath.Join(f.dir, "agent.bin")},
		{&sandbox.Policy{Name: "sb", Read: []string{f.dir}}, "does not allow tasks to run on the controller"},
		{&sandbox.Policy{Name: "sb", Local: true, Read: []string{f.dir}}, ""},
	} {
		b, err := agents.LoadBundle(f.dir, agents.LoadOptions{Modules: reg, Sandbox: &sandbox.Policy{Read: []string{f.dir}}})
		if err != nil {
			t.Fatal(err)
		}
		d, err := agents.New(f.st, b, f.inv, agents.Options{Modules: reg, Connections: transport.NewConnections().Add("ssh", f.dialer).Add("local", onController{f.dialer}), Sandbox: c.pol})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := d.Deploy(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		h := rep.Hosts[0]
		if c.want == "" {
			if actions(rep) != "h1=new/deployed" {
				t.Errorf("%+v: %s %+v", c.pol, actions(rep), h)
			}
			continue
		}
		if !strings.Contains(h.Error+h.Decision.Reason, "the controller sandbox sb "+c.want) {
			t.Errorf("%+v: %s %+v", c.pol, actions(rep), h)
		}
	}
	if _, err := agents.New(f.st, &agents.Bundle{}, f.inv, agents.Options{Modules: reg, Connections: transport.NewConnections().Add("ssh", f.dialer), Sandbox: &sandbox.Policy{Lookups: []string{"nope"}}}); err == nil {
		t.Error("an invalid policy was accepted")
	}
}

// onController is a Dialer whose connections run on the controller, as
// the local type's do: the sandbox's local rule bounds it.
type onController struct{ transport.Dialer }

func (onController) OnController() bool { return true }
