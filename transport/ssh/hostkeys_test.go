package ssh

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

func TestHostKeyUnknownStrict(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	f.dialer.KnownHosts = []string{filepath.Join(t.TempDir(), "known_hosts")}
	for _, p := range []HostKeyPolicy{HostKeyDefault, HostKeyStrict} {
		f.dialer.HostKeys = p
		_, err := f.dialer.Connect(context.Background(), f.target())
		var hk *HostKeyError
		if !errors.As(err, &hk) || hk.Changed || !errors.Is(err, transport.ErrUnreachable) || !errors.Is(err, transport.ErrHostKey) ||
			errors.Is(err, transport.ErrAuth) {
			t.Fatalf("%v: connect to an unknown host: %v", p, err)
		}
		if msg := err.Error(); !strings.Contains(msg, f.srv.Addr()[:9]) || !strings.Contains(msg, "accept-new") {
			t.Errorf("message should name the host and how to accept it: %s", msg)
		}
	}
}

func TestHostKeyAcceptNewRecordsThenVerifies(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	known := filepath.Join(t.TempDir(), "sub", "known_hosts")
	f.dialer.KnownHosts = []string{known}
	f.dialer.HostKeys = HostKeyAcceptNew
	// Concurrent first contacts record the host once.
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := f.dialer.Connect(context.Background(), f.target())
			if err != nil {
				t.Error(err)
				return
			}
			c.Close()
		}()
	}
	wg.Wait()
	data, err := os.ReadFile(known)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n != 1 {
		t.Fatalf("known_hosts has %d lines, want 1:\n%s", n, data)
	}
	// A fresh strict Dialer now trusts it.
	strict := &Dialer{KnownHosts: []string{known}, HostKeys: HostKeyStrict, ConfigFile: "none", NoAgent: true, User: "tester"}
	c, err := strict.Connect(context.Background(), f.target())
	if err != nil {
		t.Fatalf("strict after accept-new: %v", err)
	}
	c.Close()
}

// TestHostKeyChanged: a changed key is refused, naming the entry's file
// and line, also when a malformed line before it was skipped.
func TestHostKeyChanged(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	other := sshtest.Start(t, sshtest.Options{}) // a different host key
	line := strings.Replace(string(mustRead(t, knownHostsFor(t, other))), other.Addr()[10:], f.srv.Addr()[10:], 1)
	for _, before := range []string{"", "garbage\n"} {
		known := filepath.Join(t.TempDir(), "known_hosts")
		if err := os.WriteFile(known, []byte(before+line), 0o600); err != nil {
			t.Fatal(err)
		}
		f.dialer.KnownHosts = []string{known}
		for _, p := range []HostKeyPolicy{HostKeyStrict, HostKeyAcceptNew} {
			f.dialer.HostKeys = p
			_, err := f.dialer.Connect(context.Background(), f.target())
			var hk *HostKeyError
			if !errors.As(err, &hk) || !hk.Changed || !strings.Contains(err.Error(), "REMOTE HOST IDENTIFICATION HAS CHANGED") {
				t.Fatalf("%v: changed key: %v", p, err)
			}
			if want := fmt.Sprintf("%s:%d", known, 1+strings.Count(before, "\n")); len(hk.Conflicting) != 1 || hk.Conflicting[0] != want {
				t.Errorf("%v: conflicting %q, want %s", p, hk.Conflicting, want)
			}
		}
		if data := mustRead(t, known); string(data) != before+line {
			t.Fatal("a changed key must not be recorded")
		}
	}
	f.dialer.HostKeys = HostKeyInsecure
	c, err := f.dialer.Connect(context.Background(), f.target())
	if err != nil {
		t.Fatalf("insecure: %v", err)
	}
	c.Close()
}

func TestHostKeyFromCommonArgs(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	known := filepath.Join(t.TempDir(), "known_hosts")
	f.dialer.KnownHosts = nil
	tg := f.target()
	tg.Options = map[string]any{OptCommonArgs: "-o StrictHostKeyChecking=no -o 'UserKnownHostsFile " + known + "'"}
	c, err := f.dialer.Connect(context.Background(), tg)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if data := mustRead(t, known); !strings.Contains(string(data), "ssh-ed25519") {
		t.Fatalf("StrictHostKeyChecking=no must record the key (as accept-new): %q", data)
	}
}

func mustRead(t *testing.T, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestParseHostKeyPolicy(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]HostKeyPolicy{"": HostKeyDefault, "strict": HostKeyStrict, "accept-new": HostKeyAcceptNew, "insecure": HostKeyInsecure} {
		if got, err := ParseHostKeyPolicy(in); err != nil || got != want || (in != "" && got.String() != in) {
			t.Errorf("ParseHostKeyPolicy(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseHostKeyPolicy("maybe"); err == nil {
		t.Error("an unknown policy must be refused")
	}
}
