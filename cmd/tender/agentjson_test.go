package main

import (
	"encoding/json"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestAgentDeployJSONCode: a host that refuses the connection finishes
// failed with the code unreachable in the JSON stream; a deployed one
// carries no code.
func TestAgentDeployJSONCode(t *testing.T) {
	bundle, inv, state, _ := agentBundle(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close() // nothing listens there now: the connection is refused
	hosts := "a ansible_connection=local\nc ansible_connection=ssh ansible_host=127.0.0.1 ansible_port=" + strconv.Itoa(port) + "\n"
	if err := os.WriteFile(inv, []byte(hosts), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, errOut := runCLI(t, "agent", "deploy", "-i", inv, "--bundle", bundle, "--state", state, "--json")
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("line %q: %v\n%s", line, err, errOut)
		}
		if e["event"] == "host_finished" {
			code, _ := e["code"].(string)
			got[e["host"].(string)] = e["outcome"].(string) + "/" + code
		}
	}
	if got["a"] != "deployed/" || got["c"] != "failed/unreachable" {
		t.Errorf("host_finished: %v\n%s%s", got, out, errOut)
	}
}
