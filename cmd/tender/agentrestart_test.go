package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tender agent restart: hosts are required, a bundle without service:
// cannot restart anything, and a service the host does not have fails
// the host with task_failed (exit 2), in text and in JSON.
func TestAgentRestartCommand(t *testing.T) {
	bundle, inv, state, _ := agentBundle(t)
	args := []string{"agent", "restart", "-i", inv, "--bundle", bundle, "--state", state}
	if code, _, errOut := runCLI(t, args...); code != 5 || !strings.Contains(errOut, "name the hosts") {
		t.Fatalf("no hosts: exit %d %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, append(args, "a")...); code != 1 || !strings.Contains(errOut, "names no service") {
		t.Fatalf("no service: exit %d %s", code, errOut)
	}
	m, _ := os.ReadFile(filepath.Join(bundle, "agent.yaml"))
	os.WriteFile(filepath.Join(bundle, "agent.yaml"), []byte(strings.Replace(string(m), "playbook:", "service: tender-no-such-service\nplaybook:", 1)), 0o644)
	code, out, errOut := runCLI(t, append(args, "a")...)
	if code != 2 || !strings.HasPrefix(out, "a: task_failed: failed: ") {
		t.Fatalf("missing service: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	code, out, _ = runCLI(t, append(args, "--json", "a", "b")...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 2 || len(lines) != 2 {
		t.Fatalf("json: exit %d %s", code, out)
	}
	var r struct {
		Host string `json:"host"`
		Up   bool   `json:"up"`
		Code string `json:"code"`
	}
	if err := json.Unmarshal([]byte(lines[1]), &r); err != nil || r.Host != "b" || r.Up || r.Code != "task_failed" {
		t.Fatalf("json line %s: %+v %v", lines[1], r, err)
	}
}
