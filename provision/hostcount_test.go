package provision

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// TestPlayMakesOnlyItsHosts: a play limited to one host of a 2,000-host
// inventory makes the run's state of that host alone (and of the one its
// template reads through hostvars), not of every host: the controller's
// work per host must not grow with the fleet (agent deploy runs one such
// play per host).
func TestPlayMakesOnlyItsHosts(t *testing.T) {
	dir := t.TempDir()
	var hosts strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&hosts, "h%d ansible_connection=local n=%d\n", i, i)
	}
	pb := "- hosts: all\n  gather_facts: false\n  tasks:\n    - debug: msg=\"{{ hostvars.h1999.n }} {{ hostvars | length }}\"\n"
	for name, data := range map[string]string{"hosts": hosts.String(), "pb.yml": pb} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inv, err := inventory.Load(filepath.Join(dir, "hosts"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := playbooks.Load(filepath.Join(dir, "pb.yml"), playbooks.Options{Modules: builtin.Registry()})
	if err != nil {
		t.Fatal(err)
	}
	var msg string
	r := &Runner{Inventory: inv, Modules: builtin.Registry(), Connections: transport.NewConnections().Add("ssh", local.Dialer{}).Add("local", local.Dialer{}), Limit: "h7",
		Events: func(e Event) {
			if e.Kind == HostResult {
				msg = e.Msg
			}
		}}
	before := hostRunsMade.Load()
	recap, err := r.Run(context.Background(), p)
	if err != nil || recap.Failed() {
		t.Fatalf("run: %v %+v", err, recap)
	}
	if msg != "1999 2001" {
		t.Errorf("the task printed %q, want the other host's n and every host (the implicit localhost too)", msg)
	}
	if made := hostRunsMade.Load() - before; made != 3 {
		t.Errorf("the run made the state of %d hosts, want 3 (h7, h1999 read through hostvars, the implicit localhost its length counts)", made)
	}
}
