//go:build e2e

package e2e

import (
	"crypto/md5"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

// blobBundle is the hello bundle (version 1) with one more tracked file:
// size random bytes as /opt/hello/blob. It returns the bundle and the
// blob's MD5.
func blobBundle(t *testing.T, size int) (string, string) {
	t.Helper()
	v1, _ := helloBundles(t)
	blob := make([]byte, size)
	rand.Read(blob)
	if err := os.WriteFile(filepath.Join(v1, "files/blob"), blob, 0o644); err != nil {
		t.Fatal(err)
	}
	m, _ := os.ReadFile(filepath.Join(v1, "agent.yaml"))
	writeFile(t, filepath.Join(v1, "agent.yaml"), strings.Replace(string(m), "playbook:",
		"  - src: files/blob\n    dest: /opt/hello/blob\n    mode: \"0644\"\n    owner: root\n    group: root\nplaybook:", 1))
	sum := md5.Sum(blob)
	return v1, hex.EncodeToString(sum[:])
}

// runWatching runs tender with args and returns its output, its exit code
// and when it printed a line holding mark (zero if never).
func runWatching(t *testing.T, mark string, args ...string) (string, int, time.Time) {
	t.Helper()
	c, sc := startTender(t, fl.tender, args...)
	var out strings.Builder
	var seen time.Time
	for sc.Scan() {
		if seen.IsZero() && strings.Contains(sc.Text(), mark) {
			seen = time.Now()
		}
		out.WriteString(sc.Text() + "\n")
	}
	code := 0
	if err := c.Wait(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		code = ee.ExitCode()
	}
	return out.String(), code, seen
}

// TestAgentNetworkCutMidTransfer cuts one host's network (a proxy between
// tender and its sshd goes silent) in the middle of the agent's largest
// file. That host fails as unreachable within the keepalive bound, the
// others are deployed, the ledger has nothing for it, and the host holds
// no part of the file: the upload's temporary file, left over the dead
// connection, is removed by the next deploy, which deploys the host.
func TestAgentNetworkCutMidTransfer(t *testing.T) {
	const blobSize, cutAt = 16 << 20, 4 << 20
	bundle, blobSum := blobBundle(t, blobSize)
	hs := fl.own(t, "py1", "py3", "nopy1")
	proxy, err := sshtest.NewCutProxy(fmt.Sprintf("127.0.0.1:%d", hs.host("py3").port), cutAt)
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Close()
	direct := hs.inventory(t, "root", "")
	inv, _ := os.ReadFile(direct)
	cut := filepath.Join(t.TempDir(), "hosts")
	writeFile(t, cut, strings.Replace(string(inv), fmt.Sprintf("py3 ansible_host=127.0.0.1 ansible_port=%d\n", hs.host("py3").port),
		fmt.Sprintf("py3 ansible_host=127.0.0.1 ansible_port=%d\n", proxy.Port()), 1))
	state := filepath.Join(t.TempDir(), "ledger.db")

	var cutSeen time.Time
	cutDone := make(chan struct{})
	go func() { <-proxy.Cut(); cutSeen = time.Now(); close(cutDone) }()
	out, code, failed := runWatching(t, "py3: failed", hs.agentArgs(cut, state, bundle, "deploy")...)
	t.Logf("deploy with py3 cut after %d bytes: exit %d\n%s", cutAt, code, out)
	select {
	case <-cutDone:
	default:
		t.Fatal("the proxy never cut py3's network")
	}
	if code != 2 || !strings.Contains(out, "py1: deployed") || !strings.Contains(out, "nopy1: deployed") ||
		!strings.Contains(out, "py3: failed") || !strings.Contains(out, "unreachable") || !strings.Contains(out, "did not answer 3 keepalives") {
		t.Errorf("exit %d (want 2), py1 and nopy1 deployed, py3 failed as unreachable for want of keepalive answers", code)
	}
	// The default keepalive (15s, 3 missed) declares a silent host dead
	// within a minute of its last answer.
	took := failed.Sub(cutSeen)
	t.Logf("py3 failed %v after the cut", took.Round(time.Millisecond))
	if failed.IsZero() || took > 75*time.Second {
		t.Errorf("the cut host took %v to fail", took)
	}
	noLedgerRows(t, state, "py3")
	if got := strings.TrimSpace(hs.sh(t, "py3", "test -e /opt/hello/blob && echo present || echo absent")); got != "absent" {
		t.Errorf("py3: /opt/hello/blob is %s after the cut", got)
	}
	left := strings.TrimSpace(hs.sh(t, "py3", "ls -A /opt/hello | grep -F "+transport.UploadPrefix+" || true"))
	t.Logf("py3 after the cut: %q", left)
	if left == "" {
		t.Error("no upload file on py3 after the cut: the cut did not land in the transfer")
	}
	proxy.Close()

	out, code = hs.agentRun(t, direct, state, bundle, "deploy")
	if code != 0 || !strings.Contains(out, "3 hosts: 1 new, 0 upgrade, 0 repair, 2 up to date") || !strings.Contains(out, "py3: deployed (new") {
		t.Errorf("redeploy: exit %d\n%s", code, out)
	}
	if left := strings.TrimSpace(hs.sh(t, "py3", "ls -A /opt/hello /opt/hello/bin /etc/init.d | grep -F .tender || true")); left != "" {
		t.Errorf("left on py3 after the redeploy:\n%s", left)
	}
	if got := strings.Fields(hs.sh(t, "py3", "md5sum /opt/hello/blob")); len(got) == 0 || got[0] != blobSum {
		t.Errorf("py3's blob after the redeploy: %v, want %s", got, blobSum)
	}
	if got := hs.hello(t, "py3"); got != "hello 1" {
		t.Errorf("py3 answers %q", got)
	}
}
