//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
)

// agentHosts are the names of the hosts the agent tests start and deploy
// to.
var agentHosts = []string{"py1", "py3", "nopy1"}

// helloBundles builds the hello agent twice (make hello-agents) and
// returns two bundle directories: version 1 and version 2.
func helloBundles(t *testing.T) (v1, v2 string) {
	t.Helper()
	root, _ := filepath.Abs("..")
	if out, err := exec.Command("make", "-C", root, "hello-agents").CombinedOutput(); err != nil {
		t.Fatalf("make hello-agents: %v\n%s", err, out)
	}
	src := filepath.Join(root, "agents/examples/hello")
	v1, v2 = filepath.Join(t.TempDir(), "hello"), filepath.Join(t.TempDir(), "hello")
	for _, dst := range []string{v1, v2} {
		if out, err := exec.Command("cp", "-r", src, dst).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v %s", err, out)
		}
	}
	if err := os.Rename(filepath.Join(v2, "build/v2/hello.tar.gz"), filepath.Join(v2, "build/hello.tar.gz")); err != nil {
		t.Fatal(err)
	}
	m, _ := os.ReadFile(filepath.Join(v2, "agent.yaml"))
	writeFile(t, filepath.Join(v2, "agent.yaml"), strings.Replace(string(m), `version: "1"`, `version: "2"`, 1))
	return v1, v2
}

func TestAgentDeployLifecycle(t *testing.T) {
	v1, v2 := helloBundles(t)
	hs := fl.own(t, agentHosts...)
	inv := hs.inventory(t, "root", "")
	state := filepath.Join(t.TempDir(), "ledger.db")
	mustAgent := func(want string, cmd, bundle string, args ...string) string {
		t.Helper()
		out, code := hs.agentRun(t, inv, state, bundle, cmd, args...)
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("tender agent %s %v: exit %d, want %q in:\n%s", cmd, args, code, want, out)
		}
		return out
	}

	// A fresh fleet: every host is new and then answers version 1.
	out := mustAgent("3 hosts: 3 new, 0 upgrade, 0 repair, 0 up to date", "deploy", v1)
	if !strings.Contains(out, "RECAP hello 1: 3 deployed, 0 failed") {
		t.Fatalf("first deploy:\n%s", out)
	}
	for _, h := range agentHosts {
		if got := hs.hello(t, h); got != "hello 1" {
			t.Errorf("%s answers %q, want hello 1", h, got)
		}
	}
	// Again: nothing to do; every host costs its one-round-trip check.
	start := time.Now()
	out = mustAgent("3 hosts: 0 new, 0 upgrade, 0 repair, 3 up to date", "deploy", v1)
	t.Logf("no-op check of %d hosts: %v", len(agentHosts), time.Since(start))
	if !strings.Contains(out, "3 up to date, 0 busy") {
		t.Errorf("second deploy:\n%s", out)
	}
	out = mustAgent("3 hosts:", "status", v1)
	if strings.Count(out, "in-sync") != 3 {
		t.Errorf("status:\n%s", out)
	}

	// The agent stopped on one host: down, and only it is repaired.
	hs.sh(t, "nopy1", "/etc/init.d/hello stop")
	out = mustAgent("1 repair, 2 up to date", "status", v1)
	if !strings.Contains(out, "nopy1") || !strings.Contains(out, "down") {
		t.Errorf("status with nopy1 stopped:\n%s", out)
	}
	out = mustAgent("RECAP hello 1: 1 deployed", "deploy", v1)
	if !strings.Contains(out, "nopy1: deployed (repair: port 7070 is not listening)") || hs.hello(t, "nopy1") != "hello 1" {
		t.Errorf("repair of a stopped agent:\n%s", out)
	}
	// A tracked file changed on one host: drifted, only it is repaired.
	hs.sh(t, "py3", "echo '# local edit' >> /etc/init.d/hello")
	out = mustAgent("py3", "status", v1)
	if !strings.Contains(out, "drifted") || !strings.Contains(out, "/etc/init.d/hello differs on the host") {
		t.Errorf("status with py3 drifted:\n%s", out)
	}
	mustAgent("py3: deployed (repair: /etc/init.d/hello differs", "deploy", v1)

	// Version 2, killed (kill -9) after its first host, then run again:
	// the rest is upgraded one host at a time, nobody twice.
	killAfterFirstHost(t, fl.tender, hs.agentArgs(inv, state, v2, "deploy", "--batch", "1")...)
	out = mustAgent("RECAP hello 2:", "deploy", v2, "--batch", "1")
	t.Logf("rerun after kill -9:\n%s", out)
	if !strings.Contains(out, "3 hosts: 0 new, 2 upgrade, 0 repair, 1 up to date") &&
		!strings.Contains(out, "3 hosts: 0 new, 3 upgrade, 0 repair, 0 up to date") {
		t.Errorf("rerun plan:\n%s", out)
	}
	for _, h := range agentHosts {
		if got := hs.hello(t, h); got != "hello 2" {
			t.Errorf("%s answers %q after the upgrade, want hello 2", h, got)
		}
	}
	checkLedger(t, state)
}

// startTender starts bin with args and returns it with a scanner of its
// output (stdout and stderr).
func startTender(t *testing.T, bin string, args ...string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	c := exec.Command(bin, args...)
	c.Env = append(os.Environ(), "NO_COLOR=1")
	pipe, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.Stderr = c.Stdout
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	return c, bufio.NewScanner(pipe)
}

// killAfterFirstHost starts tender and kills it with SIGKILL as soon as it
// reports its first deployed host.
func killAfterFirstHost(t *testing.T, bin string, args ...string) {
	t.Helper()
	c, sc := startTender(t, bin, args...)
	var seen []string
	for sc.Scan() {
		seen = append(seen, sc.Text())
		if strings.Contains(sc.Text(), ": deployed (upgrade") {
			break
		}
	}
	c.Process.Kill()
	c.Wait() // reaped: its pid is gone, so the rerun may take its leases over
	if !strings.Contains(strings.Join(seen, "\n"), ": deployed (upgrade") {
		t.Fatalf("tender ended before deploying a host:\n%s", strings.Join(seen, "\n"))
	}
}

// checkLedger opens the ledger: it passes integrity_check, the killed
// rollout is marked interrupted, no host got version 2 twice, and the
// rerun deployed one host at a time (--batch 1).
func checkLedger(t *testing.T, path string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
	rs, ds, err := st.History(ctx, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	last, killed := rs[0], rs[1]
	if killed.Outcome != agents.OutcomeInterrupted || last.Outcome != agents.OutcomeOK {
		t.Errorf("rollouts: killed %+v, rerun %+v", killed, last)
	}
	// Every deployment row ran the playbook, whatever its outcome; only
	// the one the kill cut short (interrupted) may be run again.
	upgraded := map[string]int{}
	var rerun []store.Deployment
	for _, d := range ds {
		cutShort := d.Rollout == killed.ID && d.Outcome == agents.OutcomeInterrupted
		if (d.Rollout == killed.ID || d.Rollout == last.ID) && !cutShort {
			upgraded[d.Host]++
			if d.Outcome != agents.OutcomeOK {
				t.Errorf("deployment %+v", d)
			}
		}
		if d.Rollout == last.ID {
			rerun = append(rerun, d)
		}
		if d.Outcome == agents.OutcomeRunning {
			t.Errorf("deployment left running: %+v", d)
		}
	}
	for _, h := range agentHosts {
		if upgraded[h] != 1 {
			t.Errorf("%s upgraded %d times, want once (%v)", h, upgraded[h], upgraded)
		}
		files, ok, _ := st.Deployed(ctx, h, "hello")
		if !ok || len(files) != 2 || files[0].Version != "2" {
			t.Errorf("%s ledger rows: %+v", h, files)
		}
	}
	for i := 1; i < len(rerun); i++ { // newest first
		if rerun[i].Finished.After(rerun[i-1].Started) {
			t.Errorf("--batch 1 deployed %s and %s at once", rerun[i].Host, rerun[i-1].Host)
		}
	}
	// Each host of the rerun was a wave of its own, recorded as such.
	waves, err := st.Waves(ctx, []int64{last.ID})
	if err != nil || len(waves) != len(rerun) {
		t.Fatalf("waves of the rerun: %+v %v (%d deployments)", waves, err, len(rerun))
	}
	for i, w := range waves {
		if w.N != i+1 || w.Hosts != 1 || w.Outcomes[agents.OutcomeOK] != 1 || rerun[len(rerun)-1-i].Wave != w.N {
			t.Errorf("wave %d: %+v (deployment %+v)", i+1, w, rerun[len(rerun)-1-i])
		}
	}
	fmt.Fprintf(os.Stderr, "ledger: %d rollouts, %d deployments\n", len(rs), len(ds))
}

// TestAgentHostKilledMidDeploy: a host killed (docker kill) while its
// agent is deployed fails with a reason and gets no ledger row; the other
// host finishes. Once the host is back, deploy deploys it.
func TestAgentHostKilledMidDeploy(t *testing.T) {
	v1, _ := helloBundles(t)
	state := filepath.Join(t.TempDir(), "ledger.db")
	hs := fl.own(t, "py1", "py2")
	victim := hs.host("py2")
	inv := hs.inventory(t, "root", "")
	// The forced deploy of the victim writes a marker, then waits: the
	// host is killed once the marker is there, mid-deploy for sure.
	const marker = "/tmp/tender-agent-deploying"
	hs.sh(t, victim.name, "rm -f "+marker)
	pb, _ := os.ReadFile(filepath.Join(v1, "deploy.yml"))
	writeFile(t, filepath.Join(v1, "deploy.yml"), strings.Replace(string(pb), "  tasks:\n", "  tasks:\n"+
		"    - copy: dest="+marker+" content=x\n      when: agent_action == 'force' and inventory_hostname == 'py2'\n"+
		"    - command: sleep 60\n      when: agent_action == 'force' and inventory_hostname == 'py2'\n", 1))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if exec.Command("docker", "exec", victim.container, "test", "-e", marker).Run() == nil {
				break
			}
		}
		exec.Command("docker", "kill", victim.container).Run()
	}()
	out, code := hs.agentRun(t, inv, state, v1, "deploy", "--force")
	<-done
	if code != 2 || !strings.Contains(out, "py1: deployed") || !strings.Contains(out, "py2: failed") ||
		!strings.Contains(out, "unreachable") {
		t.Errorf("exit %d (want 2)\n%s", code, out)
	}
	noLedgerRows(t, state, "py2")
	hs.revive(t, victim.name)
	inv = hs.inventory(t, "root", "")
	out, code = hs.agentRun(t, inv, state, v1, "deploy")
	if code != 0 || !strings.Contains(out, "2 hosts: 1 new, 0 upgrade, 0 repair, 1 up to date") || !strings.Contains(out, "py2: deployed (new") {
		t.Errorf("after the host came back: exit %d\n%s", code, out)
	}
	if got := hs.hello(t, "py2"); got != "hello 1" {
		t.Errorf("py2 answers %q", got)
	}
}

// noLedgerRows fails t when the ledger at state records hello on host.
func noLedgerRows(t *testing.T, state, host string) {
	t.Helper()
	st, err := store.Open(context.Background(), state)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, ok, _ := st.Deployed(context.Background(), host, "hello"); ok {
		t.Errorf("%s failed and has ledger rows", host)
	}
}
