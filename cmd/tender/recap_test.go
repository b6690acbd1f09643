package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneRunEnd: however many playbooks run, --json ends with one run_end
// whose recap sums them, and events name their playbook.
func TestOneRunEnd(t *testing.T) {
	dir := t.TempDir()
	inv := filepath.Join(dir, "hosts")
	write(t, inv, "localhost ansible_connection=local\n")
	var pbs []string
	for _, name := range []string{"a.yml", "b.yml"} {
		pb := filepath.Join(dir, name)
		write(t, pb, "- hosts: all\n  gather_facts: false\n  tasks:\n    - command: 'true'\n")
		pbs = append(pbs, pb)
	}
	code, out, errOut := runCLI(t, append([]string{"play", "-i", inv, "--json"}, pbs...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var ends []map[string]any
	playbooks := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		if e["event"] == "run_end" {
			ends = append(ends, e)
		}
		if p, ok := e["playbook"].(string); ok && e["event"] == "host_result" {
			playbooks[p] = true
		}
	}
	if len(ends) != 1 {
		t.Fatalf("%d run_end events, want 1\n%s", len(ends), out)
	}
	stats, _ := ends[0]["recap"].(map[string]any)["localhost"].(map[string]any)
	if stats["changed"] != float64(2) {
		t.Errorf("recap %v, want changed=2 summed over both playbooks", ends[0]["recap"])
	}
	if !playbooks[pbs[0]] || !playbooks[pbs[1]] {
		t.Errorf("host results name playbooks %v, want %v", playbooks, pbs)
	}
}
