package agents_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
	"github.com/tender-sh/tender/transport/transporttest"
)

// counting is a local transport that counts the scripts each host runs.
type counting struct {
	mu   sync.Mutex
	runs map[string]int
	keys map[string][]transport.Key // the keys each host's last connection was given
}

func (c *counting) Connect(ctx context.Context, t transport.Target) (transport.Conn, error) {
	c.mu.Lock()
	if c.keys == nil {
		c.keys = map[string][]transport.Key{}
	}
	c.keys[t.Name] = t.Keys
	c.mu.Unlock()
	if t.Name == "gone" {
		return nil, transport.Unreachable(t.Name, fmt.Errorf("connection refused"))
	}
	conn, err := local.Dialer{}.Connect(ctx, t)
	if err != nil {
		return nil, err
	}
	return &countConn{Conn: conn, c: c, host: t.Name}, nil
}

func (c *counting) take() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.runs
	c.runs = map[string]int{}
	return r
}

type countConn struct {
	transport.Conn
	c    *counting
	host string
}

func (cc *countConn) Run(ctx context.Context, cmd transport.Cmd) (transport.Result, error) {
	cc.c.mu.Lock()
	if cc.c.runs == nil {
		cc.c.runs = map[string]int{}
	}
	cc.c.runs[cc.host]++
	cc.c.mu.Unlock()
	return cc.Conn.Run(ctx, cmd)
}

// fixture is a bundle whose files go under a temp "host root", a port the
// test listens on, local hosts and a ledger.
type fixture struct {
	dir, root string
	port      int
	ln        net.Listener
	st        *store.Store
	inv       *inventory.Inventory
	dialer    *counting
}

const playbook = `- hosts: all
  gather_facts: false
  tasks:
    - copy: src={{ item.src }} dest={{ item.dest }} mode={{ item.mode }}
      loop: "{{ agent_bundle_files }}"
    - fail: msg="boom password=hunter2"
      when: inventory_hostname in (fail_hosts | default([]))
    - copy: content="{{ init }}" dest={{ root }}/init-{{ inventory_hostname }}
`

func newFixture(t *testing.T, hosts ...string) *fixture {
	t.Helper()
	f := &fixture{dir: t.TempDir(), root: t.TempDir(), dialer: &counting{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f.ln, f.port = ln, ln.Addr().(*net.TCPAddr).Port
	t.Cleanup(func() { f.ln.Close() })
	os.MkdirAll(filepath.Join(f.root, "opt"), 0o755)
	f.write(t, "agent.bin", "v1")
	f.write(t, "deploy.yml", playbook)
	f.manifest(t, "1")
	f.st, err = store.Open(context.Background(), filepath.Join(t.TempDir(), "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.st.Close() })
	f.inv = inventory.New()
	for _, h := range hosts {
		hh, err := f.inv.AddHost(h)
		if err != nil {
			t.Fatal(err)
		}
		hh.SetVar("ansible_connection", "local")
	}
	return f
}

func (f *fixture) write(t *testing.T, name, data string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(f.dir, name), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) manifest(t *testing.T, version string) {
	f.write(t, "agent.yaml", fmt.Sprintf(`name: demo
version: %q
port: %d
files:
  - {src: agent.bin, dest: %s/opt/agent, mode: "0755"}
playbook: deploy.yml
vars: {root: %s}
`, version, f.port, f.root, f.root))
}

func (f *fixture) deployer(t *testing.T, mod func(*agents.Options)) *agents.Deployer {
	t.Helper()
	b, err := agents.LoadBundle(f.dir, agents.LoadOptions{Modules: builtin.Registry()})
	if err != nil {
		t.Fatal(err)
	}
	opts := agents.Options{Modules: builtin.Registry(), Connections: transport.NewConnections().Add("ssh", f.dialer).Add("local", f.dialer)}
	if mod != nil {
		mod(&opts)
	}
	d, err := agents.New(f.st, b, f.inv, opts)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// otherProcess opens the fixture's ledger again, as another tender
// process would.
func (f *fixture) otherProcess(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), f.st.Path())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func actions(rep *agents.Report) string {
	var s []string
	for _, h := range rep.Hosts {
		s = append(s, h.Host+"="+string(h.Decision.Action)+"/"+string(h.Outcome))
	}
	return strings.Join(s, " ")
}

func TestDeployLifecycle(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "h1")
	rep, err := f.deployer(t, nil).Deploy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(rep); got != "h1=new/deployed" || rep.Summary != "1 hosts: 1 new, 0 upgrade, 0 repair, 0 up to date" {
		t.Fatalf("first deploy: %s (%s) %+v", got, rep.Summary, rep.Hosts)
	}
	if data, _ := os.ReadFile(filepath.Join(f.root, "init-h1")); !strings.EqualFold(string(data), "true") {
		t.Errorf("init on a new host = %q, want True", data)
	}
	if rows, ok, _ := f.st.Deployed(ctx, "h1", "demo"); !ok || len(rows) != 1 || rows[0].Path != f.root+"/opt/agent" || rows[0].Version != "1" {
		t.Fatalf("ledger after deploy: %+v", rows)
	}
	f.dialer.take()

	// Up to date: one round trip, nothing deployed.
	rep, _ = f.deployer(t, nil).Deploy(ctx)
	if got := actions(rep); got != "h1=skip/skipped" {
		t.Fatalf("second deploy: %s", got)
	}
	if runs := f.dialer.take(); runs["h1"] != 1 {
		t.Errorf("an up-to-date host cost %d round trips, want 1", runs["h1"])
	}

	// Drift on the host: repair.
	os.WriteFile(filepath.Join(f.root, "opt/agent"), []byte("tampered"), 0o755)
	decs, err := f.deployer(t, nil).Plan(ctx)
	if err != nil || decs[0].Status != agents.StatusDrifted || !strings.Contains(decs[0].Reason, "differs on the host") {
		t.Fatalf("drift: %+v %v", decs, err)
	}
	rep, _ = f.deployer(t, nil).Deploy(ctx)
	if got := actions(rep); got != "h1=repair/deployed" {
		t.Fatalf("repair: %s", got)
	}
	if data, _ := os.ReadFile(filepath.Join(f.root, "init-h1")); !strings.EqualFold(string(data), "false") {
		t.Errorf("init on a repaired host = %q, want False", data)
	}

	// The agent is down: repair, status down.
	f.ln.Close()
	decs, _ = f.deployer(t, nil).Plan(ctx)
	if decs[0].Status != agents.StatusDown || !strings.Contains(decs[0].Reason, fmt.Sprintf("port %d", f.port)) {
		t.Fatalf("down: %+v", decs)
	}
	f.ln, _ = net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", f.port))

	// A new build: upgrade, decided without touching the host.
	f.write(t, "agent.bin", "v2")
	f.manifest(t, "2")
	f.dialer.take()
	decs, _ = f.deployer(t, nil).Plan(ctx)
	if decs[0].Action != agents.ActionUpgrade || decs[0].Probed || f.dialer.take()["h1"] != 0 {
		t.Fatalf("upgrade: %+v", decs)
	}
	rep, _ = f.deployer(t, nil).Deploy(ctx)
	if got := actions(rep); got != "h1=upgrade/deployed" {
		t.Fatalf("upgrade: %s", got)
	}
	if rows, _, _ := f.st.Deployed(ctx, "h1", "demo"); rows[0].Version != "2" {
		t.Errorf("ledger after upgrade: %+v", rows)
	}

	// Forced: deployed although in sync.
	rep, _ = f.deployer(t, func(o *agents.Options) { o.Force = true }).Deploy(ctx)
	if got := actions(rep); got != "h1=force/deployed" {
		t.Fatalf("force: %s", got)
	}
	res, err := f.deployer(t, nil).Reconnect(ctx, "h1")
	if err != nil || res.Outcome != agents.HostDeployed || res.Decision.Reason != "reconnect requested" {
		t.Fatalf("reconnect: %+v %v", res, err)
	}
	if err := f.st.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

func TestFailedDeployLeavesLedgerAndMaxFailStops(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "h1", "h2", "h3", "h4")
	maxFail := agents.Count{N: 0}
	var events []agents.EventKind
	d := f.deployer(t, func(o *agents.Options) {
		o.ExtraVars = map[string]any{"fail_hosts": []any{"h1", "h2", "h3"}}
		o.Batch = agents.Count{N: 50, Percent: true}
		o.Forks = 1
		o.MaxFail = &maxFail
		o.Events = func(e agents.Event) { events = append(events, e.Kind) }
	})
	rep, err := d.Deploy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// --max-fail 0 with one fork: the first failure stops the rollout
	// before any other host starts.
	if got := actions(rep); got != "h1=new/failed h2=new/not attempted h3=new/not attempted h4=new/not attempted" || !rep.Stopped {
		t.Fatalf("rollout: %s stopped=%v", got, rep.Stopped)
	}
	if !strings.Contains(rep.Hosts[0].Error, "boom") {
		t.Errorf("error text %q", rep.Hosts[0].Error)
	}
	if _, ok, _ := f.st.Deployed(ctx, "h1", "demo"); ok {
		t.Error("a failed deploy wrote ledger rows")
	}
	if events[0] != agents.Planned || events[len(events)-1] != agents.Finished {
		t.Errorf("events %v", events)
	}
	if _, ds, _ := f.st.History(ctx, "h2", 10); len(ds) != 0 {
		t.Errorf("h2 was attempted: %+v", ds)
	}
	rs, ds, _ := f.st.History(ctx, "h1", 10)
	if rs[0].Outcome != agents.OutcomeStopped || len(ds) != 1 || ds[0].Outcome != agents.OutcomeFailed || strings.Contains(ds[0].Error, "hunter2") {
		t.Errorf("history: %+v %+v", rs, ds)
	}
}

func TestBatchesBoundHostsInFlight(t *testing.T) {
	f := newFixture(t, "h1", "h2", "h3", "h4", "h5")
	var inFlight, most atomic.Int32
	d := f.deployer(t, func(o *agents.Options) { o.Batch = agents.Count{N: 2} })
	h := d.Start(context.Background())
	n := 0
	for range h.Events {
		n++
	}
	rep, err := h.Wait()
	if err != nil || rep.Count(agents.HostDeployed) != 5 {
		t.Fatalf("%s %v", actions(rep), err)
	}
	if n == 0 {
		t.Error("Start delivered no events")
	}
	rep, _ = f.deployer(t, func(o *agents.Options) {
		o.Batch = agents.Count{N: 2}
		o.Force = true
		o.Events = func(e agents.Event) {
			switch e.Kind {
			case agents.HostStarted:
				if n := inFlight.Add(1); n > most.Load() {
					most.Store(n)
				}
			case agents.HostFinished:
				inFlight.Add(-1)
			}
		}
	}).Deploy(context.Background())
	if rep.Count(agents.HostDeployed) != 5 || most.Load() != 2 {
		t.Errorf("deployed %d, at most %d in flight (want 2)", rep.Count(agents.HostDeployed), most.Load())
	}
}

func TestLeaseHeldElsewhereIsBusy(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "h1")
	if ok, _, _ := f.st.Lease(ctx, "h1", "demo", "tender@elsewhere:1:x", time.Hour, nil); !ok {
		t.Fatal("lease")
	}
	rep, _ := f.deployer(t, nil).Deploy(ctx)
	if rep.Hosts[0].Outcome != agents.HostBusy || !strings.Contains(rep.Hosts[0].Error, "elsewhere") {
		t.Errorf("%+v", rep.Hosts[0])
	}
}

func TestAddHostAndUnreachable(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.inv = nil
	d := f.deployer(t, nil)
	if _, err := d.Plan(ctx); err == nil {
		t.Error("a plan with no hosts succeeded")
	}
	if err := d.AddHost("n1", map[string]any{"ansible_connection": "local"}); err != nil {
		t.Fatal(err)
	}
	if err := d.AddHost("n1", nil); err == nil {
		t.Error("a host added twice")
	}
	d.AddHost("gone", nil)
	rep, err := d.Deploy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// gone is new (no ledger), so it is not probed: its deploy fails.
	if got := actions(rep); got != "n1=new/deployed gone=new/failed" {
		t.Fatalf("%s", got)
	}
	if !strings.Contains(rep.Hosts[1].Error, "connection refused") {
		t.Errorf("gone: %+v", rep.Hosts[1])
	}
	// Once in the ledger, an unreachable host is found so by its probe.
	f.st.FinishDeployment(ctx, mustStart(t, f.st, "gone"), agents.OutcomeOK, "", []agents.FileRecord{{Path: f.root + "/opt/agent", MD5: d.Bundle().Files[0].MD5, Version: "1"}})
	decs, _ := d.Plan(ctx)
	if decs[0].Action != agents.ActionSkip || decs[1].Action != agents.ActionUnreachable || !strings.Contains(decs[1].Reason, "connection refused") {
		t.Errorf("after deploy: %+v", decs)
	}
}

func mustStart(t *testing.T, st *store.Store, host string) int64 {
	id, err := st.StartDeployment(context.Background(), agents.DeploymentRecord{Host: host, Agent: "demo", Reason: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestProbeFromControllerAndHealth(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "h1")
	f.inv.Host("h1").SetVar("ansible_host", "127.0.0.1")
	m, _ := os.ReadFile(filepath.Join(f.dir, "agent.yaml"))
	health := filepath.Join(f.root, "healthy")
	f.write(t, "agent.yaml", string(m)+"probe: controller\nhealth: test -e "+health+"\n")
	os.WriteFile(health, nil, 0o644)
	if rep, err := f.deployer(t, nil).Deploy(ctx); err != nil || actions(rep) != "h1=new/deployed" {
		t.Fatalf("deploy: %v %v", rep, err)
	}
	decs, _ := f.deployer(t, nil).Plan(ctx)
	if decs[0].Action != agents.ActionSkip {
		t.Fatalf("in sync: %+v", decs[0])
	}
	os.Remove(health)
	decs, _ = f.deployer(t, nil).Plan(ctx)
	if decs[0].Status != agents.StatusDown || decs[0].Reason != "the health command failed" {
		t.Errorf("health failing: %+v", decs[0])
	}
	os.WriteFile(health, nil, 0o644)
	f.ln.Close()
	decs, _ = f.deployer(t, nil).Plan(ctx)
	if decs[0].Status != agents.StatusDown || !strings.Contains(decs[0].Reason, "connection refused") {
		t.Errorf("port closed, probed from the controller: %+v", decs[0])
	}
	os.Remove(filepath.Join(f.root, "opt/agent"))
	decs, _ = f.deployer(t, nil).Plan(ctx)
	if decs[0].Status != agents.StatusDrifted || !strings.Contains(decs[0].Reason, "opt/agent is missing; port") {
		t.Errorf("file missing: %+v", decs[0])
	}
}

// TestTwoProcessesNeverDeployTheSameHost runs two Deployers with their own
// handles on one ledger file, as two tender processes would, against the
// same host at once: the first deploys, the second finds the lease held,
// although the deploy outlasts the lease's TTL (it is renewed).
func TestTwoProcessesNeverDeployTheSameHost(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "h1")
	f.write(t, "deploy.yml", playbook+"    - command: sleep 2\n")
	other := f.otherProcess(t)
	// A lease shorter than the deploy: renewals keep it.
	d1 := f.deployer(t, func(o *agents.Options) { o.LeaseTTL = 150 * time.Millisecond })
	b, _ := agents.LoadBundle(f.dir, agents.LoadOptions{Modules: builtin.Registry()})
	d2, err := agents.New(other, b, f.inv, agents.Options{Modules: builtin.Registry(), Connections: transport.NewConnections().Add("ssh", f.dialer).Add("local", f.dialer), LeaseTTL: 150 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	reps := make([]*agents.Report, 2)
	for i, d := range []*agents.Deployer{d1, d2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The second starts when the first's lease would have
			// expired without renewal.
			time.Sleep(time.Duration(i) * 600 * time.Millisecond)
			reps[i], _ = d.Deploy(ctx)
		}()
	}
	wg.Wait()
	if got := []agents.Outcome{reps[0].Hosts[0].Outcome, reps[1].Hosts[0].Outcome}; got[0] != agents.HostDeployed || got[1] != agents.HostBusy {
		t.Errorf("outcomes %v, want deployed then busy", got)
	}
}

// TestDeployedMeanwhileIsSkipped: a tender that planned a host, then
// takes its lease after another tender deployed it and let go, re-reads
// the ledger and skips the host instead of deploying it a second time.
func TestDeployedMeanwhileIsSkipped(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "h1")
	other := f.otherProcess(t)
	b, _ := agents.LoadBundle(f.dir, agents.LoadOptions{Modules: builtin.Registry()})
	var first *agents.Report
	second := f.deployer(t, func(o *agents.Options) {
		o.Events = func(e agents.Event) {
			if e.Kind != agents.Planned {
				return
			}
			// Between the second's plan and its lease, the first
			// deploys the host and releases it.
			d1, err := agents.New(other, b, f.inv, agents.Options{Modules: builtin.Registry(), Connections: transport.NewConnections().Add("ssh", f.dialer).Add("local", f.dialer)})
			if err != nil {
				t.Error(err)
				return
			}
			first, _ = d1.Deploy(ctx)
		}
	})
	rep, err := second.Deploy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if first == nil || actions(first) != "h1=new/deployed" {
		t.Fatalf("the first deployer did not deploy: %v", first)
	}
	if h := rep.Hosts[0]; h.Outcome != agents.HostSkipped || h.Decision.Reason != "deployed meanwhile by another tender" {
		t.Errorf("second deployer: %+v", h)
	}
	if _, ds, _ := f.st.History(ctx, "h1", 10); len(ds) != 1 {
		t.Errorf("%d deployments recorded, want 1", len(ds))
	}
}

// TestLostLeaseStopsTheDeploy: when another tender takes the lease of a
// host being deployed, the deploy stops at its next renewal and writes
// no ledger rows.
func TestLostLeaseStopsTheDeploy(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "h1")
	f.write(t, "deploy.yml", playbook+"    - command: sleep 5\n")
	other := f.otherProcess(t)
	d := f.deployer(t, func(o *agents.Options) {
		o.LeaseTTL = 300 * time.Millisecond
		o.Events = func(e agents.Event) {
			if e.Kind == agents.HostTask && e.Task.Task == "command" {
				// The sleep started: another tender steals the lease.
				if ok, _, err := other.Lease(ctx, "h1", "demo", "tender@elsewhere:1:x", time.Hour, func(string) bool { return true }); !ok || err != nil {
					t.Errorf("steal: %v %v", ok, err)
				}
			}
		}
	})
	start := time.Now()
	rep, err := d.Deploy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	h := rep.Hosts[0]
	if h.Outcome != agents.HostFailed || !strings.Contains(h.Error, "lease was lost") {
		t.Errorf("%+v", h)
	}
	if took := time.Since(start); took > 4*time.Second {
		t.Errorf("the deploy ran on for %v after losing its lease", took)
	}
	if _, ok, _ := f.st.Deployed(ctx, "h1", "demo"); ok {
		t.Error("a deploy that lost its lease wrote ledger rows")
	}
}

func TestSecretsNeverReachTheLedger(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "h1")
	f.inv.Host("h1").SetVar("ansible_become_password", "Sup3rS3cret")
	f.write(t, "deploy.yml", `- hosts: all
  gather_facts: false
  tasks:
    - debug: msg="item {{ item }}"
      loop: ["{{ api_token }}"]
    - fail: msg="sudo said no to {{ ansible_become_password }} and {{ api_token }}"
`)
	var events []string
	rep, err := f.deployer(t, func(o *agents.Options) {
		o.ExtraVars = map[string]any{"api_token": "tok-123456"}
		o.Events = func(e agents.Event) {
			if e.Task != nil {
				events = append(events, fmt.Sprintf("%s|%v|%s", e.Task.Msg, e.Task.Item, e.Task.Diff))
			}
		}
	}).Deploy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(events, "\n")
	if strings.Contains(all, "Sup3rS3cret") || strings.Contains(all, "tok-123456") || !strings.Contains(all, "sudo said no to ********") {
		t.Errorf("task events leak a secret:\n%s", all)
	}
	if e := rep.Hosts[0].Error; !strings.Contains(e, "sudo said no to ******** and ********") {
		t.Errorf("report error %q", e)
	}
	_, ds, _ := f.st.History(ctx, "h1", 1)
	if strings.Contains(ds[0].Error, "Sup3rS3cret") || strings.Contains(ds[0].Error, "tok-123456") || !strings.Contains(ds[0].Error, "sudo said no") {
		t.Errorf("ledger error %q", ds[0].Error)
	}
}

// TestProbeBecomes: a bundle with become: true probes through sudo (a
// stand-in that logs its calls) when the host's become user is not the
// login user, and one without does not.
func TestProbeBecomes(t *testing.T) {
	ctx := context.Background()
	dir, log := transporttest.FakeSudo(t)
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	f := newFixture(t, "h1")
	if _, err := f.deployer(t, nil).Deploy(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := f.deployer(t, nil).Plan(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(log); err == nil {
		t.Fatal("sudo ran without become")
	}
	m, _ := os.ReadFile(filepath.Join(f.dir, "agent.yaml"))
	f.write(t, "agent.yaml", string(m)+"become: true\n")
	// Becoming the user tender runs as needs no sudo (as in Ansible):
	// become another one.
	f.inv.Host("h1").SetVar("ansible_become_user", "svc")
	decs, err := f.deployer(t, nil).Plan(ctx)
	if err != nil || decs[0].Action != agents.ActionSkip {
		t.Fatalf("%+v %v", decs, err)
	}
	if data, err := os.ReadFile(log); err != nil || !strings.Contains(string(data), "args: -n") {
		t.Errorf("the probe did not run through sudo: %q %v", data, err)
	}
}
