package agents_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

// The life of a control plane's fleet, as docs/LIBRARY.md walks it, on
// 12 simulated sshd hosts (sshtest: real SSH in this process, each host
// its own sshd, host key and root): the agent deployed with a ledger,
// nothing to do the second time, a host reconnected after a fix, the
// fleet upgraded in waves behind a canary, then a call and a cast on
// one host. A fleet of 10,000 takes the same program with Batch 1,000.
func Example_controlPlane() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "control-plane")
	defer os.RemoveAll(dir)
	fleet, err := sshtest.NewFleet(sshtest.FleetOptions{Hosts: 12, Root: dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer fleet.Close()
	key, _ := os.ReadFile(fleet.ClientKey) // the control plane's key, held in memory
	conns := transport.NewConnections().Add("ssh", &ssh.Dialer{KnownHosts: []string{fleet.KnownHosts}, ConfigFile: "none", NoAgent: true})
	var hosts []provision.Target
	for i, s := range fleet.Servers {
		hosts = append(hosts, provision.Target{Name: fleet.Names[i], Address: s.Host(), Port: s.Port(), Key: transport.Key{PEM: key}})
	}

	// 1. Deploy with a ledger: the whole embedder's program.
	st, err := store.Open(ctx, filepath.Join(dir, "ledger.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	deployer := func(version string) *agents.Deployer {
		b, err := agents.LoadBundle(versionBundle(dir, version), agents.LoadOptions{Modules: builtin.Registry()})
		if err != nil {
			panic(err)
		}
		d, err := agents.New(st, b, nil, agents.Options{Connections: conns, Batch: agents.Count{N: 5}, Canary: 1})
		if err != nil {
			panic(err)
		}
		for _, h := range hosts {
			d.AddTarget(h)
		}
		return d
	}
	d := deployer("1")
	rep, err := d.Deploy(ctx)
	fmt.Println("deploy:", counts(rep), err)

	// 2. Again: every host is up to date, one round trip each.
	rep, err = d.Deploy(ctx)
	fmt.Println("again:", counts(rep), err)

	// 3. A host an operator fixed is redeployed at once.
	res, err := d.Reconnect(ctx, "host00007")
	fmt.Println("reconnect:", res.Host, res.Outcome, err)

	// 4. Version 2: a canary alone, then waves of 5.
	up := deployer("2")
	r := up.Start(ctx)
	for e := range r.Events {
		if e.Kind == agents.WaveStarted {
			fmt.Println("wave", e.Wave, "hosts:", e.Hosts)
		}
	}
	rep, err = r.Wait()
	fmt.Println("upgrade:", counts(rep), err)

	// 5. Call and cast on one host.
	c, _ := agents.NewCaller(agents.CallOptions{Connections: conns})
	out, err := c.Call(ctx, hosts[0], "command", map[string]any{"cmd": "cat " + filepath.Join(dir, "host", "opt", "agent")})
	fmt.Println("call:", out.Data["stdout"], err)
	job, err := c.Cast(ctx, hosts[0], "shell", map[string]any{"cmd": "echo cast done"})
	if err != nil {
		fmt.Println(err)
		return
	}
	done, err := job.Wait(ctx, 0)
	fmt.Println("cast:", done.Data["stdout"], err)
	job.Forget(ctx)
	// Output:
	// deploy: deployed=12 <nil>
	// again: skipped=12 <nil>
	// reconnect: host00007 deployed <nil>
	// wave 1 hosts: 1
	// wave 2 hosts: 5
	// wave 3 hosts: 5
	// wave 4 hosts: 1
	// upgrade: deployed=12 <nil>
	// call: agent v2 <nil>
	// cast: cast done <nil>
}

// counts is a report's outcomes, as "deployed=12".
func counts(rep *agents.Report) string {
	if rep == nil {
		return "no report"
	}
	var parts []string
	for _, o := range []agents.Outcome{agents.HostDeployed, agents.HostFailed, agents.HostSkipped, agents.HostBusy, agents.HostNotAttempted} {
		if n := rep.Count(o); n > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", o, n))
		}
	}
	return strings.Join(parts, " ")
}

// versionBundle writes the walkthrough's bundle of version under dir:
// one tracked file, dir/host/opt/agent, whose text names the version.
func versionBundle(dir, version string) string {
	bundle, root := filepath.Join(dir, "bundle-v"+version), filepath.Join(dir, "host")
	os.MkdirAll(bundle, 0o755)
	os.MkdirAll(filepath.Join(root, "opt"), 0o755)
	os.WriteFile(filepath.Join(bundle, "agent.bin"), []byte("agent v"+version+"\n"), 0o644)
	os.WriteFile(filepath.Join(bundle, "deploy.yml"), []byte(`- hosts: all
  gather_facts: false
  tasks:
    - copy: src={{ item.src }} dest={{ item.dest }} mode={{ item.mode }}
      loop: "{{ agent_bundle_files }}"
`), 0o644)
	os.WriteFile(filepath.Join(bundle, agents.ManifestName), []byte(`name: hello
version: "`+version+`"
health: test -x `+root+`/opt/agent
files:
  - {src: agent.bin, dest: `+root+`/opt/agent, mode: "0755"}
playbook: deploy.yml
`), 0o644)
	return bundle
}
