//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
	"github.com/tender-sh/tender/agents/store/storetest"
)

// tallyBundle writes the agent bundle of the multi-controller test at
// version v: one tracked file, and a playbook whose last task appends
// "VERSION ACTION" to /opt/tally/deploys, so that each host tells how
// many deploys of each version ran to the end on it. The step before it
// sleeps 3 s, a window in which a controller can be killed mid-deploy.
func tallyBundle(t *testing.T, dir string, v int) string {
	t.Helper()
	b := filepath.Join(dir, fmt.Sprintf("tally-v%d", v))
	if err := os.MkdirAll(filepath.Join(b, "files"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(b, "files/tally.conf"), fmt.Sprintf("version %d\n", v))
	writeFile(t, filepath.Join(b, "agent.yaml"), fmt.Sprintf(`name: tally
version: "%d"
health: test -s /opt/tally/tally.conf
files:
  - src: files/tally.conf
    dest: /opt/tally/tally.conf
    mode: "0644"
playbook: deploy.yml
`, v))
	writeFile(t, filepath.Join(b, "deploy.yml"), `- hosts: all
  gather_facts: false
  tasks:
    - name: the agent's directory
      file: path=/opt/tally state=directory mode=0755
    - name: the agent's file
      copy: src={{ agent_bundle_files[0].src }} dest=/opt/tally/tally.conf mode=0644
    - name: a slow step
      command: sleep 3
    - name: count the deploy
      shell: echo "{{ agent_version }} {{ agent_action }}" >> /opt/tally/deploys
`)
	return b
}

// controller is one `tender agent deploy --json` process, run as if on a
// machine of its own: a UTS namespace gives it its own hostname, so the
// other controllers cannot presume it gone when it dies (they wait for
// its leases to expire, as controllers on other machines must).
type controller struct {
	name   string
	cmd    *exec.Cmd
	events chan map[string]any // every event, closed at the end
	done   chan struct{}
	mu     sync.Mutex
	seen   []map[string]any
	stderr strings.Builder
	code   int
}

func startController(t *testing.T, name string, args ...string) *controller {
	t.Helper()
	argv := append([]string{"--uts", "sh", "-c", `hostname "$0" && exec "$@"`, name, fl.tender}, args...)
	c := &controller{name: name, cmd: exec.Command("unshare", argv...), events: make(chan map[string]any, 1000), done: make(chan struct{})}
	c.cmd.Env = append(os.Environ(), "NO_COLOR=1")
	c.cmd.Stderr = &c.stderr
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var e map[string]any
			if json.Unmarshal(sc.Bytes(), &e) == nil {
				c.mu.Lock()
				c.seen = append(c.seen, e)
				c.mu.Unlock()
				c.events <- e
			}
		}
		close(c.events)
		if err := c.cmd.Wait(); err != nil {
			c.code = -1
			if ee, ok := err.(*exec.ExitError); ok {
				c.code = ee.ExitCode()
			}
		}
		close(c.done)
	}()
	return c
}

// wait waits for the controller's end and returns its finished counts.
func (c *controller) wait(t *testing.T) map[string]int {
	t.Helper()
	for range c.events {
	}
	<-c.done
	c.mu.Lock()
	defer c.mu.Unlock()
	counts := map[string]int{}
	for _, e := range c.seen {
		if e["event"] == "finished" {
			for k, v := range e["counts"].(map[string]any) {
				counts[k] = int(v.(float64))
			}
		}
	}
	return counts
}

// outcomes maps each host to its host_finished outcomes, in order.
func (c *controller) outcomes() map[string][]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string][]string{}
	for _, e := range c.seen {
		if e["event"] == "host_finished" {
			h := e["host"].(string)
			out[h] = append(out[h], e["outcome"].(string))
		}
	}
	return out
}

// TestAgentControllersShareALedger: controllers on (as it were) three
// machines deploy one bundle to the same 20 hosts through one PostgreSQL
// ledger. Run at once, they deploy every host exactly once between them.
// One killed with SIGKILL mid-deploy keeps its host leased until the
// lease expires; the other skips it as busy; a controller started after
// the expiry deploys it; no host runs a deploy to the end twice. The
// database restarted mid-rollout: both controllers wait for it and finish.
func TestAgentControllersShareALedger(t *testing.T) {
	pg, err := storetest.StartPostgres()
	storetest.Skip(t, err)
	defer pg.Stop()
	url := pg.NewDatabase(t)
	var names []string
	for i := 1; i <= 20; i++ {
		names = append(names, fmt.Sprintf("nopy%d", i))
	}
	hs := fl.own(t, names...)
	inv := hs.inventory(t, "root", "")
	dir := t.TempDir()
	args := func(v int, extra ...string) []string {
		return append(hs.agentArgs(inv, url, tallyBundle(t, dir, v), "deploy", "--json", "--keep-going"), extra...)
	}
	// deploys returns each host's count of deploys of version v run to
	// the end, by action.
	deploys := func(v int) map[string]int {
		n := map[string]int{}
		for _, h := range names {
			out := hs.sh(t, h, "cat /opt/tally/deploys 2>/dev/null || true")
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, fmt.Sprintf("%d ", v)) {
					n[h]++
				}
			}
		}
		return n
	}
	once := func(phase string, v int) {
		t.Helper()
		n := deploys(v)
		for _, h := range names {
			if n[h] != 1 {
				t.Errorf("%s: %s ran version %d's deploy to the end %d times, want once", phase, h, v, n[h])
			}
		}
	}

	// The hosts' keys, in known_hosts before the controllers share it.
	if out, code := hs.agentRun(t, inv, url, tallyBundle(t, dir, 1), "status"); code != 0 {
		t.Fatalf("status: exit %d\n%s", code, out)
	}

	// 1. Two controllers at once: every host deployed by one of them.
	a, b := startController(t, "ctl-a", args(1, "--forks", "4")...), startController(t, "ctl-b", args(1, "--forks", "4")...)
	ca, cb := a.wait(t), b.wait(t)
	t.Logf("at once: ctl-a %v, ctl-b %v", ca, cb)
	if a.code != 0 || b.code != 0 || ca["deployed"]+cb["deployed"] != 20 || ca["failed"]+cb["failed"] != 0 {
		t.Fatalf("two controllers at once: exit %d and %d, counts %v and %v\n%s%s", a.code, b.code, ca, cb, a.stderr.String(), b.stderr.String())
	}
	once("at once", 1)

	// 2. Version 2; ctl-a is killed in the middle of a host's deploy.
	const ttl = 10 * time.Second
	lease := "--lease-ttl=" + ttl.String()
	a = startController(t, "ctl-a", args(2, "--forks", "1", "--batch", "1", lease)...)
	b = startController(t, "ctl-b", args(2, "--forks", "2", "--batch", "2", lease)...)
	victim, killedAt := killMidDeploy(t, a)
	if victim == "" {
		t.Fatalf("ctl-a deployed no host long enough to be killed in the middle:\n%v", a.outcomes())
	}
	if n := deploys(2)[victim]; n != 0 {
		t.Fatalf("%s ran version 2's deploy to the end before ctl-a was killed in the middle of it", victim)
	}
	cb = b.wait(t)
	t.Logf("ctl-a killed during %s; ctl-b %v, its outcomes for it %v", victim, cb, b.outcomes()[victim])
	if got := b.outcomes()[victim]; len(got) != 1 || got[0] != "busy" {
		t.Errorf("ctl-b's outcome for %s, leased by the killed ctl-a: %v, want busy", victim, got)
	}
	time.Sleep(time.Until(killedAt.Add(ttl + time.Second)))
	checkAbandoned(t, url, "2")
	c := startController(t, "ctl-c", args(2, lease)...)
	cc := c.wait(t)
	t.Logf("ctl-c after the lease expired: %v", cc)
	if got := c.outcomes()[victim]; c.code != 0 || len(got) != 1 || got[0] != "deployed" {
		t.Errorf("ctl-c: exit %d, outcome for %s %v, want deployed\n%s", c.code, victim, got, c.stderr.String())
	}
	once("after the kill", 2)
	checkSharedLedger(t, url, names, "2")

	// 3. Version 3; the database restarts while both deploy.
	a = startController(t, "ctl-a", args(3, "--forks", "2")...)
	b = startController(t, "ctl-b", args(3, "--forks", "2")...)
	for deployed := 0; deployed < 4; {
		e, ok := <-a.events
		if !ok {
			t.Fatalf("ctl-a ended before the restart:\n%s", a.stderr.String())
		}
		if e["event"] == "host_finished" && e["outcome"] == "deployed" {
			deployed++
		}
	}
	if err := pg.Restart(3 * time.Second); err != nil {
		t.Fatal(err)
	}
	ca, cb = a.wait(t), b.wait(t)
	t.Logf("across the restart: ctl-a %v, ctl-b %v", ca, cb)
	if a.code != 0 || b.code != 0 || ca["deployed"]+cb["deployed"] != 20 {
		t.Errorf("across the restart: exit %d and %d, counts %v and %v\n%s%s", a.code, b.code, ca, cb, a.stderr.String(), b.stderr.String())
	}
	once("across the restart", 3)
	checkSharedLedger(t, url, names, "3")
	c = startController(t, "ctl-c", args(3)...)
	if cc = c.wait(t); c.code != 0 || cc["skipped"] != 20 {
		t.Errorf("the rerun: exit %d, counts %v, want 20 up to date", c.code, cc)
	}
}

// killMidDeploy kills c (SIGKILL) 1.5 s into a host's deploy that has not
// finished by then (inside its 3 s step), and returns that host and when.
func killMidDeploy(t *testing.T, c *controller) (string, time.Time) {
	t.Helper()
	var host string
	var timer <-chan time.Time
	for {
		select {
		case e, ok := <-c.events:
			if !ok {
				return "", time.Time{}
			}
			switch e["event"] {
			case "host_started":
				host, timer = e["host"].(string), time.After(1500*time.Millisecond)
			case "host_finished":
				if e["host"] == host {
					host, timer = "", nil
				}
			}
		case <-timer:
			c.cmd.Process.Kill()
			at := time.Now()
			go func() {
				for range c.events {
				}
			}()
			<-c.done
			return host, at
		}
	}
}

// checkSharedLedger: every host's ledger rows are version v, and no
// deployment is left running (the killed controller's was marked
// interrupted when another took its host over).
func checkSharedLedger(t *testing.T, url string, names []string, v string) {
	t.Helper()
	ctx := context.Background()
	st := readLedger(t, url)
	for _, h := range names {
		files, ok, err := st.Deployed(ctx, h, "tally")
		if err != nil || !ok || len(files) != 1 || files[0].Version != v {
			t.Errorf("%s's ledger rows: %+v %v", h, files, err)
		}
	}
	_, ds, err := st.History(ctx, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Outcome == agents.OutcomeRunning {
			t.Errorf("a deployment left running: %+v", d)
		}
	}
}

// checkAbandoned: the one rollout of version v left running (the killed
// controller's, whose lease has expired) reads abandoned, and nothing
// reads running.
func checkAbandoned(t *testing.T, url, v string) {
	t.Helper()
	ctx := context.Background()
	st := readLedger(t, url)
	rs, ds, err := st.History(ctx, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	abandoned := 0
	for _, r := range rs {
		switch {
		case r.Outcome == agents.OutcomeRunning:
			t.Errorf("a rollout reads running after its controller died and its lease expired: %+v", r)
		case r.Outcome == agents.OutcomeAbandoned && r.Version == v:
			abandoned++
		}
	}
	if abandoned != 1 {
		t.Errorf("%d rollouts of version %s read abandoned, want the killed controller's: %+v", abandoned, v, rs)
	}
	for _, d := range ds {
		if d.Outcome == agents.OutcomeRunning {
			t.Errorf("a deployment reads running after its rollout was abandoned: %+v", d)
		}
	}
}

// readLedger opens the shared ledger read-only, closed when the test ends.
func readLedger(t *testing.T, url string) store.Ledger {
	t.Helper()
	st, err := store.OpenState(context.Background(), url, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
