//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hostSet is one test's own hosts, by inventory name, with the test's own
// known_hosts file: nothing another test did reaches them.
type hostSet struct {
	hosts []host
	known string
}

// own starts one new host per name, each named so and of the image kind
// its name starts with (py1 and py2 are py hosts, nopy1 a nopy host; see
// freshImages), with the name as its hostname. They answer SSH when own
// returns and are removed when the test ends.
func (f *fleet) own(t *testing.T, names ...string) *hostSet {
	t.Helper()
	s := &hostSet{known: filepath.Join(t.TempDir(), "known_hosts")}
	for _, n := range names {
		s.hosts = append(s.hosts, f.start(t, strings.TrimRight(n, "0123456789"), n, n))
	}
	for _, h := range s.hosts {
		if err := waitSSH(h.port, 60*time.Second); err != nil {
			t.Fatalf("%s: %v", h.name, err)
		}
	}
	return s
}

// host returns the host of that name.
func (s *hostSet) host(name string) host {
	for _, h := range s.hosts {
		if h.name == name {
			return h
		}
	}
	panic("no host " + name + " in the test's set")
}

// sh runs a command inside a host's container and returns its output.
func (s *hostSet) sh(t *testing.T, name, script string) string {
	t.Helper()
	out, err := exec.Command("docker", "exec", s.host(name).container, "sh", "-c", script).CombinedOutput()
	if err != nil {
		t.Fatalf("docker exec %s %q: %v\n%s", name, script, err, out)
	}
	return string(out)
}

// inventory writes an INI inventory of the named hosts (all when none) in
// group fleet, logging in as user with the run's key, plus extra lines.
func (s *hostSet) inventory(t *testing.T, user string, extra string, names ...string) string {
	t.Helper()
	if len(names) == 0 {
		for _, h := range s.hosts {
			names = append(names, h.name)
		}
	}
	var b strings.Builder
	b.WriteString("[fleet]\n")
	for _, n := range names {
		fmt.Fprintf(&b, "%s ansible_host=127.0.0.1 ansible_port=%d\n", n, s.host(n).port)
	}
	fmt.Fprintf(&b, "\n[fleet:vars]\nansible_user=%s\nansible_ssh_private_key_file=%s\n%s", user, fl.key, extra)
	path := filepath.Join(t.TempDir(), "hosts")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// play runs tender play with the set's known_hosts (accept-new).
func (s *hostSet) play(t *testing.T, inv, pb string, args ...string) (string, int) {
	t.Helper()
	base := []string{"play", "-i", inv, "--host-key-checking", "accept-new", "--known-hosts", s.known, pb}
	return fl.run(t, append(base, args...)...)
}

// agentRun runs `tender agent CMD` with the test's ledger.
func (s *hostSet) agentRun(t *testing.T, inv, state, bundle string, cmd string, args ...string) (string, int) {
	t.Helper()
	return fl.run(t, s.agentArgs(inv, state, bundle, cmd, args...)...)
}

// agentArgs is the command line of `tender agent CMD` with the test's
// ledger and the set's known_hosts.
func (s *hostSet) agentArgs(inv, state, bundle string, cmd string, args ...string) []string {
	base := []string{"agent", cmd, "-i", inv, "--bundle", bundle, "--state", state,
		"--host-key-checking", "accept-new", "--known-hosts", s.known}
	return append(base, args...)
}

// hello asks a host's agent for its version, from the host itself.
func (s *hostSet) hello(t *testing.T, name string) string {
	t.Helper()
	return strings.TrimSpace(s.sh(t, name, `bash -c 'exec 3<>/dev/tcp/127.0.0.1/7070 && cat <&3' 2>/dev/null || echo down`))
}

// revive starts a killed host's container again and waits for its sshd
// (its published port may have changed; its host key has not).
func (s *hostSet) revive(t *testing.T, name string) {
	t.Helper()
	for i := range s.hosts {
		h := &s.hosts[i]
		if h.name != name {
			continue
		}
		if out, err := exec.Command("docker", "start", h.container).CombinedOutput(); err != nil {
			t.Fatalf("docker start %s: %v %s", name, err, out)
		}
		port, err := containerPort(h.container)
		if err != nil {
			t.Fatal(err)
		}
		h.port = port
		if err := waitSSH(port, 60*time.Second); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return
	}
	t.Fatalf("no host %s in the test's set", name)
}

// ip is a host's address on Docker's network, where the other hosts reach
// it.
func (s *hostSet) ip(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("docker", "inspect", "-f", "{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}", s.host(name).container).Output()
	if f := strings.Fields(string(out)); err == nil && len(f) > 0 {
		return f[0]
	}
	t.Fatalf("docker inspect %s: %v %s", name, err, out)
	return ""
}
