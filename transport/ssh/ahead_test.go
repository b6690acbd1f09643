package ssh

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

func runAhead(t *testing.T, c *Conn, cmd transport.Cmd, next ...transport.Cmd) (transport.Result, []*transport.Pending) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, pend, err := c.RunAhead(ctx, cmd, next)
	if err != nil {
		t.Fatalf("RunAhead(%q): %v", cmd.Script, err)
	}
	if len(pend) != len(next) {
		t.Fatalf("%d pendings for %d scripts", len(pend), len(next))
	}
	return res, pend
}

func wait(t *testing.T, p *transport.Pending) (transport.Result, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, ran, err := p.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return res, ran
}

// TestRunAheadGates: the queued scripts travel in the write of the first
// and run in order while each one before them exits 0; from the first
// that does not, none runs, and the shell serves the next Run as ever.
func TestRunAheadGates(t *testing.T) {
	f := newFixture(t, sshtest.Options{})
	c := f.connect(t)
	dir := t.TempDir()
	mustRun(t, c, transport.Cmd{Script: "true"}) // starts the shell
	before := c.Stats()
	res, pend := runAhead(t, c, transport.Cmd{Script: "echo one"},
		transport.Cmd{Script: "cat; echo two >&2", Stdin: bytes.NewReader([]byte("in\x00put\n"))},
		transport.Cmd{Script: "echo $X; exit 3", Env: map[string]string{"X": "three"}},
		transport.Cmd{Script: "touch " + transport.Quote(filepath.Join(dir, "four"))},
		transport.Cmd{Script: "echo five"})
	if string(res.Stdout) != "one\n" || res.ExitCode != 0 {
		t.Fatalf("first: %+v", res)
	}
	r, ran := wait(t, pend[0])
	if !ran || string(r.Stdout) != "in\x00put\n" || string(r.Stderr) != "two\n" {
		t.Errorf("second: ran %v, %+v", ran, r)
	}
	if r, ran = wait(t, pend[1]); !ran || string(r.Stdout) != "three\n" || r.ExitCode != 3 {
		t.Errorf("third: ran %v, %+v", ran, r)
	}
	for i := 2; i < 4; i++ {
		if _, ran := wait(t, pend[i]); ran {
			t.Errorf("script %d ran after one that failed", i+2)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "four")); err == nil {
		t.Error("the fourth script ran")
	}
	after := c.Stats()
	if after.ShellWrites-before.ShellWrites != 1 || after.ShellRuns-before.ShellRuns != 3 {
		t.Errorf("stats before %+v after %+v: want one write, three scripts run", before, after)
	}
	if got := mustRun(t, c, transport.Cmd{Script: "echo after"}); string(got.Stdout) != "after\n" {
		t.Errorf("the shell answered %q after the batch", got.Stdout)
	}
}

// TestRunAheadAbandoned: a queued script whose caller gives up never
// runs, though its frame already reached the shell.
func TestRunAheadAbandoned(t *testing.T) {
	f := newFixture(t, sshtest.Options{})
	c := f.connect(t)
	dir := t.TempDir()
	mark := filepath.Join(dir, "ran")
	mustRun(t, c, transport.Cmd{Script: "true"})
	_, pend := runAhead(t, c, transport.Cmd{Script: "true"},
		transport.Cmd{Script: "sleep 2", Final: true},
		transport.Cmd{Script: "touch " + transport.Quote(mark)})
	pend[0].Abandon()
	for _, p := range pend {
		wait(t, p)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Error("a script queued behind an abandoned one ran")
	}
	if got := mustRun(t, c, transport.Cmd{Script: "echo after"}); string(got.Stdout) != "after\n" {
		t.Errorf("the shell answered %q after the batch", got.Stdout)
	}
}

// TestRunAheadClosed: closing the connection stops what is still queued.
func TestRunAheadClosed(t *testing.T) {
	f := newFixture(t, sshtest.Options{})
	c := f.connect(t)
	dir := t.TempDir()
	mark := filepath.Join(dir, "ran")
	mustRun(t, c, transport.Cmd{Script: "true"})
	runAhead(t, c, transport.Cmd{Script: "true"},
		transport.Cmd{Script: "sleep 1"},
		transport.Cmd{Script: "touch " + transport.Quote(mark)})
	c.Close()
	time.Sleep(1500 * time.Millisecond) // longer than the sleep, had it gone on
	if _, err := os.Stat(mark); err == nil {
		t.Error("a queued script ran after the connection closed")
	}
}

// TestRunAheadTooBig: a queued script too big for the shell's frame is
// skipped (its caller runs it again), with every one after it.
func TestRunAheadTooBig(t *testing.T) {
	f := newFixture(t, sshtest.Options{})
	c := f.connect(t)
	big := strings.Repeat("x", inBandLimit+1)
	_, pend := runAhead(t, c, transport.Cmd{Script: "true"},
		transport.Cmd{Script: "cat >/dev/null", Stdin: bytes.NewReader([]byte(big))},
		transport.Cmd{Script: "true"})
	for i, p := range pend {
		if _, ran := wait(t, p); ran {
			t.Errorf("script %d ran", i+2)
		}
	}
}
