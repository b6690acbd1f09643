package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestHostKeyWarnings: inventory arguments that turn host key checking
// off, and --host-key-checking insecure, are warned about once per run,
// naming the hosts and the arguments, in the text output and as --json
// events.
func TestHostKeyWarnings(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // nothing answers there: the hosts are unreachable
	dir := t.TempDir()
	inv := filepath.Join(dir, "hosts")
	pb := filepath.Join(dir, "site.yml")
	args := `ansible_ssh_common_args="-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"`
	hosts := "[web]\n"
	for _, h := range []string{"web1", "web2"} {
		hosts += h + " ansible_host=127.0.0.1 ansible_port=" + strconv.Itoa(port) + " " + args + "\n"
	}
	hosts += "db1 ansible_host=127.0.0.1 ansible_port=" + strconv.Itoa(port) + "\n"
	write(t, inv, hosts)
	write(t, pb, "- hosts: all\n  gather_facts: false\n  tasks:\n    - command: 'true'\n- hosts: all\n  gather_facts: false\n  tasks:\n    - command: 'true'\n")
	known := filepath.Join(dir, "known_hosts")

	code, out, errOut := runCLI(t, "play", "-i", inv, "--known-hosts", known, "--ssh-config", "none", pb)
	if code != 4 {
		t.Fatalf("exit %d, want 4 (unreachable)\n%s\n%s", code, out, errOut)
	}
	// --known-hosts wins over UserKnownHostsFile: keys are recorded
	// there and checked next time, nothing to warn about.
	if strings.Contains(out+errOut, "host keys are not checked") {
		t.Errorf("no warning expected with --known-hosts:\n%s%s", out, errOut)
	}

	code, out, errOut = runCLI(t, "play", "-i", inv, "--ssh-config", "none", pb)
	if code != 4 {
		t.Fatalf("exit %d, want 4 (unreachable)\n%s\n%s", code, out, errOut)
	}
	want := "[WARNING]: web1, web2: host keys are not checked: ansible_ssh_common_args has -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"
	// On stderr, as ansible-playbook's warnings.
	if n := strings.Count(errOut, want); n != 1 || strings.Contains(out, want) {
		t.Errorf("want the warning once on stderr, got %d times:\n%s\nstdout:\n%s", n, errOut, out)
	}

	code, out, _ = runCLI(t, "play", "--json", "--host-key-checking", "insecure", "-i", inv, "--ssh-config", "none", pb)
	if code != 4 {
		t.Fatalf("exit %d, want 4\n%s", code, out)
	}
	var warnings []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("--json line %q: %v", line, err)
		}
		if msg, _ := e["msg"].(string); e["event"] == "warning" && strings.Contains(msg, "host keys") {
			warnings = append(warnings, msg)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "--host-key-checking=insecure") {
		t.Errorf("--json warnings: %q", warnings)
	}

	code, out, _ = runCLI(t, "play", "--json", "-i", inv, "--ssh-config", "none", pb)
	if code != 4 || !strings.Contains(out, `"hosts":["web1","web2"]`) || strings.Count(out, "UserKnownHostsFile=/dev/null") != 1 {
		t.Errorf("--json should carry the warning once, with its hosts: exit %d\n%s", code, out)
	}
}

func write(t *testing.T, file, data string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
