package agents_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// A control plane keeps an agent current on its hosts: a bundle (the
// agent's files and the playbook that installs them), a ledger of what
// went where, and a Deployer that plans and deploys. The walk in
// docs/LIBRARY.md is this example. Its two hosts are this machine (the
// local connection), so that it runs anywhere; a fleet's hosts use ssh,
// which the default connections hold too.
func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "agent-example")
	defer os.RemoveAll(dir)

	// 1. The bundle: a manifest, the agent's file, a playbook.
	bundle := writeBundle(dir)

	// 2. Load it with the modules it may use: given once, here.
	b, err := agents.LoadBundle(bundle, agents.LoadOptions{Modules: builtin.Registry()})
	if err != nil {
		fmt.Println(err)
		return
	}
	// 3. The ledger: SQLite here; store.OpenState takes a postgres:// URL
	// for several controllers.
	st, err := store.Open(ctx, filepath.Join(dir, "ledger.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()

	// 4. The Deployer (with the default connections, ssh and local) and
	// its hosts.
	d, err := agents.New(st, b, nil, agents.Options{
		Batch: agents.Count{N: 1}, // one host at a time
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, h := range []string{"kvm-1", "kvm-2"} {
		// Over ssh: provision.Target{Name: h, Address: "10.0.0.7",
		// User: "root", Key: transport.Key{PEM: key}}.
		if err := d.AddTarget(provision.Target{Name: h, Connection: "local"}); err != nil {
			fmt.Println(err)
			return
		}
	}

	// 5. Deploy, then plan again: nothing is left to do.
	rep, err := d.Deploy(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, h := range rep.Hosts {
		fmt.Println(h.Host, h.Decision.Action, h.Outcome)
	}
	plan, err := d.Plan(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, dec := range plan {
		fmt.Println(dec.Host, dec.Action, dec.Status)
	}
	// Output:
	// kvm-1 new deployed
	// kvm-2 new deployed
	// kvm-1 skip in-sync
	// kvm-2 skip in-sync
}

// writeBundle writes the examples' bundle under dir and returns its
// directory: one tracked file, installed under dir/host by a copy task.
func writeBundle(dir string) string {
	bundle, root := filepath.Join(dir, "bundle"), filepath.Join(dir, "host")
	os.MkdirAll(bundle, 0o755)
	os.MkdirAll(filepath.Join(root, "opt"), 0o755)
	os.WriteFile(filepath.Join(bundle, "agent.bin"), []byte("agent v1\n"), 0o644)
	os.WriteFile(filepath.Join(bundle, "deploy.yml"), []byte(`- hosts: all
  gather_facts: false
  tasks:
    - copy: src={{ item.src }} dest={{ item.dest }} mode={{ item.mode }}
      loop: "{{ agent_bundle_files }}"
`), 0o644)
	os.WriteFile(filepath.Join(bundle, agents.ManifestName), []byte(`name: hello
version: "1"
health: test -x `+root+`/opt/agent
files:
  - {src: agent.bin, dest: `+root+`/opt/agent, mode: "0755"}
playbook: deploy.yml
`), 0o644)
	return bundle
}

// Start runs a rollout in the background: its events arrive on a channel
// a control plane shows progress from, and Wait returns the report.
// Reconnect then redeploys one host whatever the ledger says.
func ExampleDeployer_Start() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "agent-example")
	defer os.RemoveAll(dir)
	b, err := agents.LoadBundle(writeBundle(dir), agents.LoadOptions{Modules: builtin.Registry()})
	if err != nil {
		fmt.Println(err)
		return
	}
	st, err := store.Open(ctx, filepath.Join(dir, "ledger.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	d, err := agents.New(st, b, nil, agents.Options{Connections: transport.NewConnections().Add("local", local.Dialer{})})
	if err != nil {
		fmt.Println(err)
		return
	}
	d.AddHost("kvm-1", map[string]any{"ansible_connection": "local"})

	r := d.Start(ctx)
	for e := range r.Events { // read them all: the rollout waits for its reader
		switch e.Kind {
		case agents.Planned:
			fmt.Println(e.Kind, e.Summary)
		case agents.WaveStarted:
			fmt.Println(e.Kind, e.Wave, "hosts:", e.Hosts)
		case agents.HostFinished:
			fmt.Println(e.Kind, e.Result.Host, e.Result.Outcome)
		}
	}
	if _, err := r.Wait(); err != nil {
		fmt.Println(err)
		return
	}
	res, err := d.Reconnect(ctx, "kvm-1")
	fmt.Println("reconnect:", res.Host, res.Decision.Reason, res.Outcome, err)
	// Output:
	// planned 1 hosts: 1 new, 0 upgrade, 0 repair, 0 up to date
	// wave_started 1 hosts: 1
	// host_finished kvm-1 deployed
	// reconnect: kvm-1 reconnect requested deployed <nil>
}
