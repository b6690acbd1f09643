//go:build e2e

// Package e2e runs the built tender binary against a docker-compose fleet
// of real OpenSSH hosts (e2e/fleet), built offline, published on
// 127.0.0.1 only, and torn down at the end. Run with `make test` (or
// `go test -tags e2e ./e2e/`); E2E=0 make test skips it.
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

// fleet is the running fleet of one test binary.
type fleet struct {
	project string
	dir     string // the run's temp dir: keys, inventories, known_hosts
	key     string // the throwaway private key
	tender  string // the built binary
	hosts   []host
	mu      sync.Mutex // guards spare and seq
	spare   []host     // started by fresh, outside hosts
	seq     int        // fresh hosts started so far
}

type host struct {
	name      string // inventory name: py1, py2, py3, nopy1
	service   string // compose service
	index     int
	port      int    // published on 127.0.0.1
	container string // docker container name
}

var fl *fleet

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
	f := &fleet{project: fmt.Sprintf("tender-e2e-%d", os.Getpid()), dir: dir, key: filepath.Join(dir, "id_ed25519"),
		tender: filepath.Join(dir, "tender")}
	steps := [][]string{
		{"bash", filepath.Join(root, "e2e/fleet/build-images.sh")},
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
	defer f.compose("down", "-v", "--remove-orphans")
	// Hosts that fresh started and a failed test left behind.
	defer func() {
		ids, _ := exec.Command("docker", "ps", "-aq", "--filter", "label=tender.e2e.project="+f.project).Output()
		if ids := strings.Fields(string(ids)); len(ids) > 0 {
			exec.Command("docker", append([]string{"rm", "-f"}, ids...)...).Run()
		}
	}()
	if out, err := f.compose("up", "-d", "--scale", "py=3", "--scale", "nopy=1"); err != nil {
		return 1, fmt.Errorf("docker-compose up: %v\n%s", err, out)
	}
	for _, s := range []struct {
		svc string
		n   int
	}{{"py", 3}, {"nopy", 1}} {
		for i := 1; i <= s.n; i++ {
			h, err := f.discover(s.svc, i)
			if err != nil {
				return 1, err
			}
			f.hosts = append(f.hosts, h)
		}
	}
	for _, h := range f.hosts {
		if err := waitSSH(h.port, 60*time.Second); err != nil {
			return 1, fmt.Errorf("%s: %w", h.name, err)
		}
	}
	fl = f
	return m.Run(), nil
}

func (f *fleet) compose(args ...string) ([]byte, error) {
	root, _ := filepath.Abs("..")
	c := exec.Command("docker-compose", append([]string{"-p", f.project, "-f", filepath.Join(root, "e2e/fleet/docker-compose.yml")}, args...)...)
	c.Env = append(os.Environ(), "TENDER_E2E_KEYS="+filepath.Join(f.dir, "authorized_keys"))
	return c.CombinedOutput()
}

func (f *fleet) discover(svc string, i int) (host, error) {
	out, err := f.compose("port", "--index", fmt.Sprint(i), svc, "22")
	if err != nil {
		return host{}, fmt.Errorf("docker-compose port %s %d: %v %s", svc, i, err, out)
	}
	_, port, err := net.SplitHostPort(strings.TrimSpace(string(out)))
	if err != nil {
		return host{}, fmt.Errorf("docker-compose port %s %d: %q", svc, i, out)
	}
	var p int
	fmt.Sscan(port, &p)
	// Compose v1 names replicas PROJECT_SERVICE_INDEX.
	name := fmt.Sprintf("%s_%s_%d", f.project, svc, i)
	return host{name: fmt.Sprintf("%s%d", svc, i), service: svc, index: i, port: p, container: name}, nil
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

// host returns the fleet host with that inventory name.
func (f *fleet) host(name string) host {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, h := range append(f.hosts, f.spare...) {
		if h.name == name {
			return h
		}
	}
	panic("no fleet host " + name)
}

// freshImages maps the kinds fresh accepts to fleet images.
var freshImages = map[string]string{
	"py":     "tender-e2e/debian-py",
	"nopy":   "tender-e2e/debian",
	"sys":    "tender-e2e/debian-sys",
	"rh":     "tender-e2e/rh",
	"openrc": "tender-e2e/debian-openrc",
}

// fresh starts n new hosts of an image kind (py, nopy, sys, rh, openrc;
// see freshImages), set up as docker-compose.yml sets up its services (rh
// hosts see the local rpm repositories of rpmrepo.sh at /srv/tender-rpm,
// their only repositories, instead of the apt one; openrc hosts run
// openrc-init as PID 1, as Dockerfile.debian-openrc says), untouched
// by other tests and left out of f.hosts (so no all-hosts inventory
// includes them), and returns them once their sshd answers. Hosts of one
// kind share a hostname (the kind), so two of them are identical. They are
// removed when the test ends. It is safe from parallel tests.
func (f *fleet) fresh(t *testing.T, kind string, n int) []host {
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
	var hs []host
	for i := 0; i < n; i++ {
		f.mu.Lock()
		f.seq++
		seq := f.seq
		f.mu.Unlock()
		h := host{name: fmt.Sprintf("%s-fresh%d", kind, seq), service: kind, index: seq,
			container: fmt.Sprintf("%s-%s-fresh%d", f.project, kind, seq)}
		init := []string{"--init"}
		if kind == "openrc" {
			init = []string{"--tmpfs", "/run", "-e", "container=docker"}
		}
		args := append(append([]string{"run", "-d"}, init...), "--name", h.container, "--hostname", kind,
			"--label", "tender.e2e.project="+f.project, "-p", "127.0.0.1::22",
			"-v", filepath.Join(f.dir, "authorized_keys")+":/etc/ssh/tender_authorized_keys:ro")
		args = append(args, mounts...)
		out, err := exec.Command("docker", append(args, image)...).CombinedOutput()
		if err != nil {
			t.Fatalf("docker run %s: %v\n%s", image, err, out)
		}
		t.Cleanup(func() { exec.Command("docker", "rm", "-f", h.container).Run() })
		out, err = exec.Command("docker", "port", h.container, "22/tcp").CombinedOutput()
		if _, port, perr := net.SplitHostPort(strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])); err != nil || perr != nil {
			t.Fatalf("docker port %s: %v %s", h.container, err, out)
		} else {
			fmt.Sscan(port, &h.port)
		}
		hs = append(hs, h)
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

// inventory writes an INI inventory of the named hosts (all when none),
// logging in as user with the run's key, plus extra lines.
func (f *fleet) inventory(t *testing.T, user string, extra string, names ...string) string {
	t.Helper()
	if len(names) == 0 {
		for _, h := range f.hosts {
			names = append(names, h.name)
		}
	}
	var b strings.Builder
	b.WriteString("[fleet]\n")
	for _, n := range names {
		h := f.host(n)
		fmt.Fprintf(&b, "%s ansible_host=127.0.0.1 ansible_port=%d\n", h.name, h.port)
	}
	fmt.Fprintf(&b, "\n[fleet:vars]\nansible_user=%s\nansible_ssh_private_key_file=%s\n%s", user, f.key, extra)
	path := filepath.Join(t.TempDir(), "hosts")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
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
