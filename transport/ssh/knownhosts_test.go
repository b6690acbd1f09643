package ssh

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skeema/knownhosts"

	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

// badKnownHostsLines are lines x/crypto's known_hosts parser refuses,
// each of which used to make the whole file, and so every host, fail.
var badKnownHostsLines = []string{
	"garbage",
	"host-only ssh-ed25519",
	"host ssh-ed25519 not!base64",
	"host ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA==",
	"@bogus host ssh-ed25519 AAAA",
	"|2|c2FsdA==|aGFzaA== ssh-ed25519 " + testPub,
	"|1|c2FsdA== ssh-ed25519 " + testPub,
	"!,good ssh-ed25519 " + testPub,
	"[host:22 ssh-ed25519 " + testPub,
	"host ssh-rsa " + testPub,
	strings.Repeat("x", 70000),
}

// testPub is a valid ed25519 public key blob.
const testPub = "AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"

// Good lines are entries, each bad one is skipped with a warning naming
// its file and line, and the lines around it stay; what is skipped is
// what x/crypto's parser refuses.
func TestKnownHostsLines(t *testing.T) {
	t.Parallel()
	good := []string{
		"", "# comment", "  \t", "host ssh-ed25519 " + testPub,
		"host,[10.0.0.1]:2222,!bad ssh-ed25519 " + testPub + " comment words",
		"|1|c2FsdA==|aGFzaA== ssh-ed25519 " + testPub,
		"@cert-authority *.example.com ssh-ed25519 " + testPub,
		"@revoked * ssh-ed25519 " + testPub,
		"host ssh-ed25519 " + testPub + "\r",
	}
	for _, line := range good {
		if warnings := newKHIndex().addFile("kh", []byte(line+"\n")); warnings != nil {
			t.Errorf("good line %q: %v", line, warnings)
		}
	}
	for _, line := range badKnownHostsLines {
		data := "host ssh-ed25519 " + testPub + "\n" + line + "\nother ssh-ed25519 " + testPub
		x := newKHIndex()
		warnings := x.addFile("kh", []byte(data))
		if len(x.entries) != 2 || x.entries[1].known.Line != 3 || len(warnings) != 1 || !strings.HasPrefix(warnings[0], "kh:2: skipped a line") {
			t.Errorf("bad line %.40q: %d entries, %q", line, len(x.entries), warnings)
		}
		// What x/crypto refuses is what we skip.
		file := filepath.Join(t.TempDir(), "kh")
		if err := os.WriteFile(file, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := knownhosts.NewDB(file); err == nil {
			t.Errorf("bad line %.40q: x/crypto accepts it, so it need not be skipped", line)
		}
	}
}

// TestKnownHostsBadLineSkipped: a malformed line in known_hosts is
// skipped, as OpenSSH does, so the hosts the file does list are still
// verified, and Warnings names the file and line.
func TestKnownHostsBadLineSkipped(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	known := f.dialer.KnownHosts[0]
	good := mustRead(t, known)
	data := "# tender\n" + badKnownHostsLines[2] + "\n" + string(good) + badKnownHostsLines[0] + "\n"
	if err := os.WriteFile(known, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	f.dialer.HostKeys = HostKeyStrict
	c, err := f.dialer.Connect(context.Background(), f.target())
	if err != nil {
		t.Fatalf("a bad line must not make the host fail: %v", err)
	}
	c.Close()
	w := f.dialer.Warnings(f.target())
	if len(w) != 2 || !strings.HasPrefix(w[0], known+":2: ") || !strings.HasPrefix(w[1], known+":4: ") {
		t.Errorf("warnings should name file:line of each bad line: %q", w)
	}
	f.dialer.HostKeys = HostKeyInsecure
	if w := f.dialer.Warnings(f.target()); len(w) != 0 {
		t.Errorf("known_hosts is not read when keys are not checked: %q", w)
	}
}
