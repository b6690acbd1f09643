//go:build e2e

package ssh

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/internal/fleetimage"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
	"github.com/tender-sh/tender/transport/transporttest"
)

const e2eImage = "tender-e2e/debian"

// startSSHD runs the e2e fleet's Debian image (built when missing) on a
// loopback port, with a new key pair's public half as every login's
// authorized key, and returns the port once sshd answers with its version
// banner, and the private key's path.
func startSSHD(t testing.TB) (port int, key string) {
	t.Helper()
	if _, err := exec.LookPath("docker"); err != nil {
		t.Fatal("docker is not installed: the e2e tests need it (E2E=0 make test skips them)")
	}
	fleetimage.Need(t, e2eImage)
	key = filepath.Join(t.TempDir(), "id_ed25519")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "tender-e2e", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v %s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	pub := key + ".pub"
	out, err := exec.Command("docker", "run", "-d", "--rm", "-p", "127.0.0.1:"+strconv.Itoa(port)+":22",
		"-v", pub+":/etc/ssh/tender_authorized_keys:ro", e2eImage).CombinedOutput()
	if err != nil {
		t.Fatalf("docker run: %v: %s", err, out)
	}
	id := strings.TrimSpace(string(out))
	t.Cleanup(func() { _ = exec.Command("docker", "rm", "-f", id).Run() })
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		nc, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), time.Second)
		if err == nil {
			_ = nc.SetReadDeadline(time.Now().Add(2 * time.Second))
			buf := make([]byte, 8)
			n, _ := nc.Read(buf)
			nc.Close()
			if bytes.HasPrefix(buf[:n], []byte("SSH-2.0")) {
				return port, key
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatal("sshd in the container did not answer within 30s")
	return 0, ""
}

func TestE2EOpenSSH(t *testing.T) {
	port, key := startSSHD(t)
	known := filepath.Join(t.TempDir(), "known_hosts")
	target := func(user string) transport.Target {
		return transport.Target{Name: "debian", Host: "127.0.0.1", Port: port, User: user, KeyFiles: []string{key}}
	}
	ctx := context.Background()

	// Strict against an empty known_hosts: refused, naming the host.
	strict := &Dialer{KnownHosts: []string{known}, HostKeys: HostKeyStrict, ConfigFile: "none", NoAgent: true}
	_, err := strict.Connect(ctx, target("root"))
	var hk *HostKeyError
	if !errors.As(err, &hk) || hk.Changed || !errors.Is(err, transport.ErrUnreachable) {
		t.Fatalf("strict connect to an unknown host: %v", err)
	}
	// accept-new records the key; strict then accepts it.
	accept := &Dialer{KnownHosts: []string{known}, HostKeys: HostKeyAcceptNew, ConfigFile: "none", NoAgent: true}
	c, err := accept.Connect(ctx, target("root"))
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	strict = &Dialer{KnownHosts: []string{known}, HostKeys: HostKeyStrict, ConfigFile: "none", NoAgent: true}
	suite := func(user string) transporttest.Suite {
		return transporttest.Suite{
			Open: func(t *testing.T) transport.Conn {
				c, err := strict.Connect(ctx, target(user))
				if err != nil {
					t.Fatal(err)
				}
				return c
			},
			Banner: func(t *testing.T) (string, string) { return "127.0.0.1:22", "SSH-2.0-" },
		}
	}
	t.Run("root", func(t *testing.T) { transporttest.Run(t, suite("root")) })
	t.Run("deploy", func(t *testing.T) { transporttest.Run(t, suite("deploy")) })
	t.Run("become", func(t *testing.T) { testBecome(t, suite("deploy").Open(t)) })
	t.Run("become-password", func(t *testing.T) {
		// "ops" needs its password for sudo (newer fleet images).
		c, err := strict.Connect(ctx, target("ops"))
		if err != nil {
			t.Skipf("no ops user in this image: %v", err)
		}
		defer c.Close()
		res := mustRun(t, c, transport.Cmd{Script: "id -un; cat", Stdin: strings.NewReader("data"),
			Become: &transport.Become{Password: "ops-secret"}})
		if string(res.Stdout) != "root\ndata" || res.ExitCode != 0 {
			t.Fatalf("become with a password: exit %d %q %q", res.ExitCode, res.Stdout, res.Stderr)
		}
		res = mustRun(t, c, transport.Cmd{Script: "id -un", Become: &transport.Become{Password: "wrong"}})
		if res.ExitCode == 0 || strings.Contains(string(res.Stdout)+string(res.Stderr), "wrong") {
			t.Fatalf("a wrong become password: exit %d %q %q", res.ExitCode, res.Stdout, res.Stderr)
		}
		if res := mustRun(t, c, transport.Cmd{Script: "id -un", Become: &transport.Become{}}); res.ExitCode == 0 {
			t.Fatalf("become without the password it needs must fail, not hang: %q", res.Stdout)
		}
	})
	t.Run("become-suite", func(t *testing.T) {
		// The whole suite as deploy, every call through sudo to root.
		transporttest.Run(t, transporttest.Suite{
			Open: func(t *testing.T) transport.Conn {
				c := suite("deploy").Open(t)
				t.Cleanup(func() { c.Close() })
				return transport.WithBecome(c, &transport.Become{})
			},
			Banner: func(t *testing.T) (string, string) { return "127.0.0.1:22", "SSH-2.0-" },
		})
	})
	t.Run("proxyjump", func(t *testing.T) {
		// Through the container's sshd to the same sshd seen from inside.
		jd := &Dialer{KnownHosts: []string{known}, HostKeys: HostKeyAcceptNew, ConfigFile: "none", NoAgent: true}
		c, err := jd.Connect(ctx, transport.Target{Name: "inner", Host: "127.0.0.1", Port: 22, User: "deploy",
			KeyFiles: []string{key}, Options: map[string]any{OptCommonArgs: "-o ProxyJump=root@127.0.0.1:" + strconv.Itoa(port)}})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		res := mustRun(t, c, transport.Cmd{Script: "echo $SSH_CONNECTION"})
		if !strings.HasPrefix(string(res.Stdout), "127.0.0.1 ") {
			t.Fatalf("not connected from inside the container: %q", res.Stdout)
		}
	})
	t.Run("exec-fallback", func(t *testing.T) {
		noShell := &Dialer{KnownHosts: []string{known}, ConfigFile: "none", NoAgent: true, NoShell: true}
		transporttest.Run(t, transporttest.Suite{
			Open: func(t *testing.T) transport.Conn {
				c, err := noShell.Connect(ctx, target("deploy"))
				if err != nil {
					t.Fatal(err)
				}
				return c
			},
			Banner: func(t *testing.T) (string, string) { return "127.0.0.1:22", "SSH-2.0-" },
		})
	})
}

// testBecome runs scripts as deploy through sudo to root and to another
// user, with and without a (not needed) password, with stdin and env.
func testBecome(t *testing.T, c transport.Conn) {
	defer c.Close()
	for _, b := range []*transport.Become{{}, {User: "root", Password: "not-needed"}, {User: "nobody"}} {
		res := mustRun(t, c, transport.Cmd{
			Script: `echo "$(id -un) $GREETING"; cat; echo warn >&2; exit 4`,
			Env:    map[string]string{"GREETING": "hello"},
			Stdin:  strings.NewReader("in\x00put"),
			Become: b,
		})
		want := "root"
		if b.User == "nobody" {
			want = "nobody"
		}
		if got := string(res.Stdout); got != want+" hello\nin\x00put" || string(res.Stderr) != "warn\n" || res.ExitCode != 4 {
			t.Errorf("become %+v: exit %d stdout %q stderr %q", *b, res.ExitCode, res.Stdout, res.Stderr)
		}
	}
	if res := mustRun(t, c, transport.Cmd{Script: "id -un"}); string(res.Stdout) != "deploy\n" {
		t.Errorf("without become: %q", res.Stdout)
	}
}

// BenchmarkE2ERun times one Run against the container's OpenSSH as deploy,
// on the persistent shell and on exec channels.
func BenchmarkE2ERun(b *testing.B) {
	port, key := startSSHD(b)
	for _, mode := range []struct {
		name    string
		noShell bool
	}{{"PersistentShell", false}, {"Exec", true}} {
		b.Run(mode.name, func(b *testing.B) {
			d := &Dialer{KnownHosts: []string{filepath.Join(b.TempDir(), "kh")}, HostKeys: HostKeyAcceptNew,
				ConfigFile: "none", NoAgent: true, NoShell: mode.noShell}
			c, err := d.Connect(context.Background(), transport.Target{Name: "debian", Host: "127.0.0.1", Port: port,
				User: "deploy", KeyFiles: []string{key}})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			cmd := transport.Cmd{Script: "cat; echo $X", Env: map[string]string{"X": "1"}}
			mustRun(b, c, cmd)
			b.ResetTimer()
			for b.Loop() {
				cmd.Stdin = strings.NewReader("input ")
				if res := mustRun(b, c, cmd); string(res.Stdout) != "input 1\n" {
					b.Fatalf("%q", res.Stdout)
				}
			}
		})
	}
}

// TestE2ERoundTrips counts the round trips of one Run against real
// OpenSSH, through a proxy that delays what the client sends: the
// difference between the fastest Runs with and without the delay, in
// units of it.
func TestE2ERoundTrips(t *testing.T) {
	port, key := startSSHD(t)
	proxy, err := sshtest.NewDelayProxy("127.0.0.1:" + strconv.Itoa(port))
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Close()
	const latency = 100 * time.Millisecond
	for _, noShell := range []bool{false, true} {
		proxy.SetLatency(0)
		d := &Dialer{KnownHosts: []string{filepath.Join(t.TempDir(), "kh")}, HostKeys: HostKeyAcceptNew,
			ConfigFile: "none", NoAgent: true, NoShell: noShell}
		c, err := d.Connect(context.Background(), transport.Target{Name: "debian", Host: "127.0.0.1", Port: proxy.Port(),
			User: "deploy", KeyFiles: []string{key}})
		if err != nil {
			t.Fatal(err)
		}
		cmd := transport.Cmd{Script: "cat; echo $X", Env: map[string]string{"X": "1"}}
		fastest := func() time.Duration {
			var ds []time.Duration
			for range 7 {
				cmd.Stdin = strings.NewReader("in ")
				start := time.Now()
				mustRun(t, c, cmd)
				ds = append(ds, time.Since(start))
			}
			return slices.Min(ds)
		}
		fastest() // warm up: starts the persistent shell
		base := fastest()
		proxy.SetLatency(latency)
		slow := fastest()
		c.Close()
		trips := float64(slow-base) / float64(latency)
		t.Logf("exec channels %v: fastest Run %v, %v with %v more per round trip: %.2f round trips", noShell, base, slow, latency, trips)
		if !noShell && trips > 1.5 {
			t.Errorf("a Run on the persistent shell cost %.2f round trips against OpenSSH, want 1", trips)
		}
		if noShell && trips < 2 {
			t.Errorf("an exec Run cost %.2f round trips, expected at least 2", trips)
		}
	}
}
