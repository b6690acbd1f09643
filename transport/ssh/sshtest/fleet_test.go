package sshtest

import (
	"bytes"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// sftpChild makes this test binary an sftp-server when a fleet runs it as
// its SFTPCommand (see TestFleet).
const sftpChild = "SSHTEST_SFTP_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(sftpChild) == "1" {
		if err := ServeSFTP(stdio{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return os.Stdout.Close() }

// dialFleet logs in to host i of f, checking its key against the fleet's
// known_hosts, with the fleet's client key.
func dialFleet(t *testing.T, f *Fleet, i int, timeout time.Duration) (*ssh.Client, error) {
	t.Helper()
	hk, err := knownhosts.New(f.KnownHosts)
	if err != nil {
		t.Fatal(err)
	}
	key, err := os.ReadFile(f.ClientKey)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.ParsePrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := net.DialTimeout("tcp", f.Servers[i].Addr(), timeout)
	if err != nil {
		return nil, err
	}
	nc.SetDeadline(time.Now().Add(timeout)) // the handshake's
	cc, chans, reqs, err := ssh.NewClientConn(nc, f.Servers[i].Addr(), &ssh.ClientConfig{
		User: "root", Auth: []ssh.AuthMethod{ssh.PublicKeys(signer)}, HostKeyCallback: hk,
	})
	if err != nil {
		nc.Close()
		return nil, err
	}
	nc.SetDeadline(time.Time{})
	return ssh.NewClient(cc, chans, reqs), nil
}

func run(t *testing.T, c *ssh.Client, cmd string) string {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out, err := s.CombinedOutput(cmd)
	if err != nil {
		t.Fatalf("%s: %v: %s", cmd, err, out)
	}
	return string(out)
}

// TestFleet: each host of a fleet has its own port and host key (checked
// against the fleet's known_hosts), runs sh in its own root with HOME
// there, serves SFTP from that root by the subsystem program, and makes
// a round trip cost at least the latency; the inventory names them all.
func TestFleet(t *testing.T) {
	t.Setenv(sftpChild, "1")
	const latency = 40 * time.Millisecond
	f, err := NewFleet(FleetOptions{Hosts: 3, Root: t.TempDir(), Latency: latency, SFTPCommand: []string{os.Args[0]}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	inv, _ := os.ReadFile(f.Inventory)
	for i, s := range f.Servers {
		want := f.Names[i] + " ansible_host=127.0.0.1 ansible_port=" + strings.TrimPrefix(s.Addr(), "127.0.0.1:") + "\n"
		if !strings.Contains(string(inv), want) {
			t.Errorf("inventory lacks %q:\n%s", want, inv)
		}
	}
	if bytes.Equal(f.Servers[0].HostKey().Marshal(), f.Servers[1].HostKey().Marshal()) {
		t.Error("two hosts share a host key")
	}
	c, err := dialFleet(t, f, 1, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	out := run(t, c, `pwd; echo "$HOME"; echo hi > mark; cat /proc/self/cwd/mark`)
	if took := time.Since(start); took < latency {
		t.Errorf("an exec took %v, less than the latency %v", took, latency)
	}
	if want := f.Dirs[1] + "\n" + f.Dirs[1] + "\nhi\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	for i, d := range f.Dirs {
		if _, err := os.Stat(filepath.Join(d, "mark")); (err == nil) != (i == 1) {
			t.Errorf("host %d: mark: %v", i, err)
		}
	}
	sc, err := sftp.NewClient(c)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	w, err := sc.Create("/proc/self/cwd/put")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("sftp"))
	w.Close()
	if b, err := os.ReadFile(filepath.Join(f.Dirs[1], "put")); string(b) != "sftp" {
		t.Errorf("the sftp upload did not land in the host's root: %q, %v", b, err)
	}
}

// TestFleetFaults: a hung host accepts and never answers; a dropped
// handshake closes the connection; a bandwidth limit slows a transfer
// to at least its size over the rate.
func TestFleetFaults(t *testing.T) {
	f, err := NewFleet(FleetOptions{Hosts: 2, Root: t.TempDir(), HangRate: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hung := 0
	if f.Hung[1] {
		hung = 1
	}
	if _, err := dialFleet(t, f, hung, 300*time.Millisecond); err == nil {
		t.Error("logged in to a hung host")
	} else if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("a hung host: %v, want a timeout", err)
	}
	if c, err := dialFleet(t, f, 1-hung, 5*time.Second); err != nil {
		t.Errorf("the other host: %v", err)
	} else {
		c.Close()
	}

	drop, err := NewFleet(FleetOptions{Hosts: 1, Root: t.TempDir(), DropRate: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer drop.Close()
	if _, err := dialFleet(t, drop, 0, 5*time.Second); err == nil {
		t.Error("logged in through a dropped handshake")
	}

	const rate, size = 256 << 10, 128 << 10
	slow, err := NewFleet(FleetOptions{Hosts: 1, Root: t.TempDir(), Bandwidth: rate})
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	c, err := dialFleet(t, slow, 0, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	if out := run(t, c, "head -c 131072 /dev/zero"); len(out) != size {
		t.Fatalf("got %d bytes, want %d", len(out), size)
	}
	if took, least := time.Since(start), time.Duration(float64(size)/rate*float64(time.Second)); took < least {
		t.Errorf("%d bytes at %d B/s took %v, less than %v", size, rate, took, least)
	}
}
