package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// agentBundle writes a bundle whose file goes under root, with the port
// of a listener the test holds, and a local inventory of two hosts.
func agentBundle(t *testing.T) (bundle, inv, state, root string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	bundle, root = t.TempDir(), t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(bundle, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("agent.bin", "v1")
	write("agent.yaml", fmt.Sprintf("name: demo\nversion: \"1\"\nport: %d\nfiles:\n  - {src: agent.bin, dest: %s/agent}\nplaybook: deploy.yml\n",
		ln.Addr().(*net.TCPAddr).Port, root))
	write("deploy.yml", "- hosts: all\n  gather_facts: false\n  tasks:\n    - copy: src={{ item.src }} dest={{ item.dest }}\n      loop: \"{{ agent_bundle_files }}\"\n")
	inv = filepath.Join(t.TempDir(), "hosts.ini")
	os.WriteFile(inv, []byte("a ansible_connection=local\nb ansible_connection=local\n"), 0o644)
	state = filepath.Join(t.TempDir(), "ledger.db")
	return
}

func TestAgentCommands(t *testing.T) {
	bundle, inv, state, root := agentBundle(t)
	agentCommands(t, bundle, inv, state, root)
}

// agentCommands runs status, history, deploy and forget on the ledger
// that state names, which must hold nothing yet.
func agentCommands(t *testing.T, bundle, inv, state, root string) {
	args := []string{"-i", inv, "--bundle", bundle, "--state", state}
	// status and history change nothing: no ledger is created.
	code, out, errOut := runCLI(t, append([]string{"agent", "status"}, args...)...)
	if code != 0 || strings.Count(out, "never deployed  no ledger entry") != 2 {
		t.Errorf("status without a ledger: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut = runCLI(t, "agent", "history", "--state", state); code != 0 || !strings.Contains(out, "DEPLOYMENTS") {
		t.Errorf("history without a ledger: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) && !strings.HasPrefix(state, "postgres://") {
		t.Errorf("status or history created the ledger: %v", err)
	}
	code, out, errOut = runCLI(t, append([]string{"agent", "deploy", "--batch", "50%"}, args...)...)
	if code != 0 || !strings.HasPrefix(out, "2 hosts: 2 new, 0 upgrade, 0 repair, 0 up to date\n") ||
		!strings.Contains(out, "RECAP demo 1: 2 deployed, 0 failed") {
		t.Fatalf("deploy: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, append([]string{"agent", "deploy"}, args...)...)
	if code != 0 || !strings.Contains(out, "a: up to date\n") || !strings.Contains(out, "2 up to date") {
		t.Fatalf("second deploy: exit %d\n%s", code, out)
	}
	os.WriteFile(filepath.Join(root, "agent"), []byte("drift"), 0o644)
	code, out, _ = runCLI(t, append([]string{"agent", "status", "--json"}, args...)...)
	var st struct {
		Summary string
		Hosts   []struct{ Host, Status, Reason string }
	}
	if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil {
		t.Fatalf("status --json: exit %d %v\n%s", code, err, out)
	}
	if st.Hosts[0].Status != "drifted" || st.Summary != "2 hosts: 0 new, 0 upgrade, 2 repair, 0 up to date" {
		t.Errorf("status: %+v", st)
	}
	code, out, _ = runCLI(t, "agent", "history", "--state", state)
	if code != 0 || strings.Count(out, ": ok in ") != 2 || !strings.Contains(out, "ROLLOUTS\n#2 ") ||
		!strings.Contains(out, "\n  wave 1: 1 host: 1 ok\n  wave 2: 1 host: 1 ok\n") || !strings.Contains(out, " rollout #1 wave 2 ") {
		t.Errorf("history: exit %d\n%s", code, out)
	}
	// Each deploy is a run of the history too, its hosts' tasks with it.
	code, out, _ = runCLI(t, "history", "--state", state)
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != 0 || len(lines) != 3 || !strings.Contains(lines[1], " agent ") ||
		!strings.Contains(lines[2], "2, 2 changed") || !strings.HasSuffix(lines[2], "demo 1") {
		t.Errorf("tender history: exit %d\n%s", code, out)
	}
	if code, out, _ = runCLI(t, "history", "show", "1", "--state", state); code != 0 || !strings.Contains(out, "  TASK [copy]\n") ||
		!strings.Contains(out, ": a\n") || !strings.Contains(out, ": b\n") {
		t.Errorf("tender history show: exit %d\n%q", code, out)
	}
	code, out, _ = runCLI(t, "agent", "forget", "--state", state, "a")
	if code != 0 || out != "forgot a\n" {
		t.Errorf("forget: exit %d %q", code, out)
	}
	_, out, _ = runCLI(t, append([]string{"agent", "status"}, args...)...)
	if !strings.Contains(out, "never deployed") {
		t.Errorf("status after forget:\n%s", out)
	}
}

func TestAgentBadInput(t *testing.T) {
	bundle, inv, state, _ := agentBundle(t)
	manifest, _ := os.ReadFile(filepath.Join(bundle, "agent.yaml"))
	for _, c := range []struct {
		name, manifest, playbook, state, want string
		args                                  []string
		code                                  int
	}{
		{name: "missing file", manifest: strings.Replace(string(manifest), "agent.bin", "nope.bin", 1), code: 4, want: "agent.yaml:5:11: src: stat"},
		{name: "bad port", manifest: strings.Replace(string(manifest), "port:", "port: 99999\nx:", 1), code: 4, want: "agent.yaml:3:7: port \"99999\""},
		{name: "unknown module", playbook: "- hosts: all\n  tasks:\n    - frobnicate: a=b\n", code: 4, want: "deploy.yml:3:7"},
		{name: "unreadable ledger", state: "/proc/version/ledger.db", code: 1, want: "ledger /proc/version/ledger.db"},
		{name: "short lease", args: []string{"--lease-ttl", "1s"}, code: 5, want: "--lease-ttl 1s: want 3s or more"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "agent.bin"), []byte("v1"), 0o644)
			m, pb := c.manifest, c.playbook
			if m == "" {
				m = string(manifest)
			}
			if pb == "" {
				data, _ := os.ReadFile(filepath.Join(bundle, "deploy.yml"))
				pb = string(data)
			}
			os.WriteFile(filepath.Join(dir, "deploy.yml"), []byte(pb), 0o644)
			os.WriteFile(filepath.Join(dir, "agent.yaml"), []byte(m), 0o644)
			s := state
			if c.state != "" {
				s = c.state
			}
			code, out, errOut := runCLI(t, append([]string{"agent", "deploy", "-i", inv, "--bundle", dir, "--state", s}, c.args...)...)
			if code != c.code || !strings.Contains(errOut, c.want) || out != "" {
				t.Errorf("exit %d (want %d)\nstdout %q\nstderr %s", code, c.code, out, errOut)
			}
		})
	}
}

// TestAgentReadOnlyLedger: status and history read a ledger they may not
// write beside (here directories stand where SQLite would create its
// write-ahead log and index, which stops root too).
func TestAgentReadOnlyLedger(t *testing.T) {
	bundle, inv, state, _ := agentBundle(t)
	args := []string{"-i", inv, "--bundle", bundle, "--state", state}
	if code, out, errOut := runCLI(t, append([]string{"agent", "deploy"}, args...)...); code != 0 {
		t.Fatalf("deploy: exit %d\n%s%s", code, out, errOut)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Mkdir(state+suffix, 0o500); err != nil {
			t.Fatal(err)
		}
	}
	if code, out, errOut := runCLI(t, append([]string{"agent", "status"}, args...)...); code != 0 || strings.Count(out, "in-sync") != 2 {
		t.Errorf("status: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, "agent", "history", "--state", state); code != 0 || strings.Count(out, "demo: ok") != 2 {
		t.Errorf("history: exit %d\n%s%s", code, out, errOut)
	}
}

// TestAgentDeployJSONAndWaves: agent deploy --json prints the rollout as
// JSON events a control plane can follow: the plan, a canary wave of one,
// the pause, the next wave, each host, and the counts at the end.
func TestAgentDeployJSONAndWaves(t *testing.T) {
	bundle, inv, state, _ := agentBundle(t)
	code, out, errOut := runCLI(t, "agent", "deploy", "-i", inv, "--bundle", bundle, "--state", state,
		"--json", "--canary", "1", "--batch", "5", "--pause", "10ms")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	var kinds []string
	var last map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		kind, _ := e["event"].(string)
		if kind == "wave_started" {
			kind = fmt.Sprintf("wave_started(%v)", e["hosts"])
		}
		kinds = append(kinds, kind)
		last = e
	}
	got := strings.Join(kinds, " ")
	for _, want := range []string{"planned wave_started(1) host_started host_finished pausing wave_started(1) host_started host_finished finished"} {
		if got != want {
			t.Errorf("events %s\nwant   %s", got, want)
		}
	}
	if counts, _ := last["counts"].(map[string]any); counts["deployed"] != 2.0 || counts["not_attempted"] != 0.0 {
		t.Errorf("final counts %v", last["counts"])
	}
}
