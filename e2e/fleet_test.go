//go:build e2e

// Package e2e runs the built tender binary against real OpenSSH hosts:
// containers of the e2e fleet's images (e2e/fleet), built offline,
// published on 127.0.0.1 only. Every test starts its own hosts and
// removes them when it ends, so no test depends on what ran before it.
// Run with `make test` (or `go test -tags e2e ./e2e/`); E2E=0 make test
// skips it.
package e2e

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fleet is what the tests of one test binary share: the throwaway key,
// the built binary and a name for their containers. Hosts are never
// shared: each test starts its own (own, fresh, systemdHosts).
type fleet struct {
	project string
	dir     string     // the run's temp dir: keys, inventories, known_hosts
	key     string     // the throwaway private key
	tender  string     // the built binary
	mu      sync.Mutex // guards spare and seq
	spare   []host     // started by fresh and systemdHosts
	seq     int        // hosts started so far
}

type host struct {
	name      string // inventory name: py1, py2, nopy1, py-fresh3, ...
	service   string // image kind (freshImages)
	index     int
	port      int    // published on 127.0.0.1
	container string // docker container name
}

var fl *fleet

// e2eImages are the fleet images this package's tests start.
var e2eImages = []string{"tender-e2e/debian-py", "tender-e2e/debian", "tender-e2e/debian-sys",
	"tender-e2e/debian-systemd", "tender-e2e/debian-openrc", "tender-e2e/rh"}

func TestMain(m *testing.M) {
	code, err := runFleet(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func runFleet(m *testing.M) (int, error) {
	if out, err := exec.Command("docker", "info", "--format", "{{.ServerVersion}}").CombinedOutput(); err != nil {
		return 1, fmt.Errorf("Docker is not reachable (%v: %s); the e2e tests need it. Run `E2E=0 make test` to skip them on a machine without Docker", err, bytes.TrimSpace(out))
	}
	root, _ := filepath.Abs("..")
	dir, err := os.MkdirTemp("", "tender-e2e-")
	if err != nil {
		return 1, err
	}
	defer os.RemoveAll(dir)
	// The tender processes the tests run record their runs in a ledger
	// of the run's own, not the user's.
	os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	f := &fleet{project: fmt.Sprintf("tender-e2e-%d", os.Getpid()), dir: dir, key: filepath.Join(dir, "id_ed25519"),
		tender: filepath.Join(dir, "tender")}
	steps := [][]string{
		append([]string{"bash", filepath.Join(root, "e2e/fleet/build-images.sh")}, e2eImages...),
		{"bash", filepath.Join(root, "e2e/fleet/aptrepo.sh")},
		{"bash", filepath.Join(root, "e2e/fleet/rpmrepo.sh")},
		{"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "tender-e2e", "-f", f.key},
		{"go", "build", "-tags", "urfave_cli_no_docs", "-o", f.tender, "./cmd/tender"},
	}
	for _, s := range steps {
		c := exec.Command(s[0], s[1:]...)
		c.Dir = root
		if out, err := c.CombinedOutput(); err != nil {
			return 1, fmt.Errorf("%s: %v\n%s", strings.Join(s, " "), err, out)
		}
	}
	if err := os.Rename(f.key+".pub", filepath.Join(dir, "authorized_keys")); err != nil {
		return 1, err
	}
	os.Chmod(filepath.Join(dir, "authorized_keys"), 0o644)
	// Hosts a failed or interrupted test left behind.
	defer func() {
		ids, _ := exec.Command("docker", "ps", "-aq", "--filter", "label=tender.e2e.project="+f.project).Output()
		if ids := strings.Fields(string(ids)); len(ids) > 0 {
			exec.Command("docker", append([]string{"rm", "-f"}, ids...)...).Run()
		}
	}()
	fl = f
	return m.Run(), nil
}

// containerPort is the 127.0.0.1 port docker published for a container's
// port 22.
func containerPort(container string) (int, error) {
	out, err := exec.Command("docker", "port", container, "22/tcp").CombinedOutput()
	_, port, perr := net.SplitHostPort(strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0]))
	if err != nil || perr != nil {
		return 0, fmt.Errorf("docker port %s: %v %s", container, err, out)
	}
	var p int
	fmt.Sscan(port, &p)
	return p, nil
}

// waitSSH waits until the port answers with an SSH banner.
func waitSSH(port int, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			c.SetReadDeadline(time.Now().Add(2 * time.Second))
			buf := make([]byte, 8)
			n, _ := c.Read(buf)
			c.Close()
			if strings.HasPrefix(string(buf[:n]), "SSH-") {
				return nil
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("sshd on port %d did not answer within %v", port, limit)
}

// host returns the host fresh or systemdHosts started with that name.
func (f *fleet) host(name string) host {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, h := range f.spare {
		if h.name == name {
			return h
		}
	}
	panic("no fleet host " + name)
}

// freshImages maps the kinds fresh and own accept to fleet images.
var freshImages = map[string]string{
	"py":     "tender-e2e/debian-py",
	"nopy":   "tender-e2e/debian",
	"sys":    "tender-e2e/debian-sys",
	"rh":     "tender-e2e/rh",
	"openrc": "tender-e2e/debian-openrc",
}

// fresh starts n new hosts of an image kind (see start), named
// KIND-freshN, and returns them once their sshd answers. Hosts of one
// kind share a hostname (the kind), so two of them are identical. They
// are removed when the test ends. It is safe from parallel tests.
func (f *fleet) fresh(t *testing.T, kind string, n int) []host {
	t.Helper()
	var hs []host
	for i := 0; i < n; i++ {
		hs = append(hs, f.start(t, kind, "", kind))
	}
	for _, h := range hs {
		if err := waitSSH(h.port, 60*time.Second); err != nil {
			t.Fatalf("%s: %v", h.name, err)
		}
	}
	f.mu.Lock()
	f.spare = append(f.spare, hs...)
	f.mu.Unlock()
	return hs
}

// start runs a new container of an image kind (py, nopy, sys, rh, openrc;
// see freshImages) named name (KIND-freshN when empty), with that
// hostname, set up as docker-compose.yml sets up the demo's hosts: the
// run's key for root, deploy and ops, the fleet's local apt repository as
// the only source (rh hosts see the local rpm repositories of rpmrepo.sh
// at /srv/tender-rpm instead; openrc hosts run openrc-init as PID 1, as
// Dockerfile.debian-openrc says). It does not wait for sshd. The
// container is removed when the test ends.
func (f *fleet) start(t *testing.T, kind, name, hostname string) host {
	t.Helper()
	image, ok := freshImages[kind]
	if !ok {
		t.Fatalf("no fleet image kind %q", kind)
	}
	root, _ := filepath.Abs("..")
	repo := func(env, dir string) string {
		if d := os.Getenv(env); d != "" {
			return d
		}
		return filepath.Join(root, "e2e/.fleet", dir)
	}
	mounts := []string{"-v", filepath.Join(root, "e2e/fleet/apt-sources.list") + ":/etc/apt/sources.list:ro",
		"-v", repo("TENDER_E2E_APT", "apt") + ":/srv/tender-apt:ro"}
	if kind == "rh" {
		mounts = []string{"-v", repo("TENDER_E2E_RPM", "rpm") + ":/srv/tender-rpm:ro"}
	}
	f.mu.Lock()
	f.seq++
	seq := f.seq
	f.mu.Unlock()
	if name == "" {
		name = fmt.Sprintf("%s-fresh%d", kind, seq)
	}
	h := host{name: name, service: kind, index: seq, container: fmt.Sprintf("%s-%s-%d", f.project, name, seq)}
	init := []string{"--init"}
	if kind == "openrc" {
		init = []string{"--tmpfs", "/run", "-e", "container=docker"}
	}
	args := append(append([]string{"run", "-d"}, init...), "--name", h.container, "--hostname", hostname,
		"--label", "tender.e2e.project="+f.project, "-p", "127.0.0.1::22",
		"-v", filepath.Join(f.dir, "authorized_keys")+":/etc/ssh/tender_authorized_keys:ro")
	args = append(args, mounts...)
	out, err := exec.Command("docker", append(args, image)...).CombinedOutput()
	if err != nil {
		t.Fatalf("docker run %s: %v\n%s", image, err, out)
	}
	t.Cleanup(func() { exec.Command("docker", "rm", "-f", h.container).Run() })
	if h.port, err = containerPort(h.container); err != nil {
		t.Fatal(err)
	}
	return h
}

// tender runs the binary; it returns the output and the exit code.
func (f *fleet) run(t *testing.T, args ...string) (string, int) {
	t.Helper()
	c := exec.Command(f.tender, args...)
	c.Env = append(os.Environ(), "NO_COLOR=1")
	out, err := c.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// sh runs a command inside a fleet container and returns its output.
func (f *fleet) sh(t *testing.T, name, script string) string {
	t.Helper()
	out, err := exec.Command("docker", "exec", f.host(name).container, "sh", "-c", script).CombinedOutput()
	if err != nil {
		t.Fatalf("docker exec %s %q: %v\n%s", name, script, err, out)
	}
	return string(out)
}

// writePlaybook writes a playbook into a temp dir and returns its path.
func writePlaybook(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pb.yml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
