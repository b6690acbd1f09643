package ssh

import (
	"bytes"
	"context"
	"fmt"
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
	if r.Start.IsZero() || r.End.Before(r.Start) {
		t.Errorf("second: ran from %v to %v", r.Start, r.End)
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

// TestRunAheadOneTurn: through the delaying proxy, five Runs cost five
// turns of the client, and one Run with four scripts queued behind it
// one turn, every script run.
func TestRunAheadOneTurn(t *testing.T) {
	f := newFixture(t, sshtest.Options{})
	px, err := sshtest.NewDelayProxy(f.srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer px.Close()
	px.SetLatency(5 * time.Millisecond)
	tg := f.target()
	tg.Port = px.Port()
	ctx := context.Background()
	d := &Dialer{KnownHosts: []string{filepath.Join(t.TempDir(), "kh")}, HostKeys: HostKeyAcceptNew,
		ConfigFile: "none", NoAgent: true, User: "tester"}
	conn, err := d.Connect(ctx, tg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := conn.(*Conn)
	mustRun(t, c, transport.Cmd{Script: "true"})
	before := px.Turns()
	for range 5 {
		mustRun(t, c, transport.Cmd{Script: "echo x"})
	}
	if n := px.Turns() - before; n != 5 {
		t.Errorf("five Runs: %d turns", n)
	}
	before = px.Turns()
	_, pend := runAhead(t, c, transport.Cmd{Script: "echo 1"}, transport.Cmd{Script: "echo 2"},
		transport.Cmd{Script: "echo 3"}, transport.Cmd{Script: "echo 4"}, transport.Cmd{Script: "echo 5"})
	for i, p := range pend {
		if r, ran := wait(t, p); !ran || string(r.Stdout) != fmt.Sprintf("%d\n", i+2) {
			t.Errorf("script %d: ran %v, %q", i+2, ran, r.Stdout)
		}
	}
	if n := px.Turns() - before; n != 1 {
		t.Errorf("five scripts in one write: %d turns", n)
	}
}

// TestRunAheadStopSparesNextRun: stopping a batch never reaches the Run
// that comes after it on the shell.
func TestRunAheadStopSparesNextRun(t *testing.T) {
	f := newFixture(t, sshtest.Options{})
	c := f.connect(t)
	mustRun(t, c, transport.Cmd{Script: "true"})
	for i := range 5 {
		_, pend := runAhead(t, c, transport.Cmd{Script: "sleep 0.1; exit 1"}, transport.Cmd{Script: "true"}, transport.Cmd{Script: "true"})
		pend[0].Abandon()
		res := mustRun(t, c, transport.Cmd{Script: "sleep 0.3; echo ok"})
		if string(res.Stdout) != "ok\n" || res.ExitCode != 0 {
			t.Fatalf("round %d: the Run after a stopped batch: %+v", i, res)
		}
	}
}

// TestRunAheadFallbackKeepsStdin: when RunAhead cannot use the
// persistent shell (busy with another Run, or a stdin too large to go in
// band) it runs the script as Run does, with all of its stdin: the part
// it had already read to frame it is not lost.
func TestRunAheadFallbackKeepsStdin(t *testing.T) {
	f := newFixture(t, sshtest.Options{})
	c := f.connect(t)
	mustRun(t, c, transport.Cmd{Script: "true"}) // the shell is started
	for _, in := range []string{"small stdin\n", strings.Repeat("y", inBandLimit+10)} {
		before := c.Stats().ShellRuns
		busy := make(chan error, 1)
		release := filepath.Join(t.TempDir(), "release")
		go func() {
			_, err := c.Run(context.Background(), transport.Cmd{Script: "while [ ! -e " + release + " ]; do sleep 0.05; done"})
			busy <- err
		}()
		for deadline := time.Now().Add(10 * time.Second); len(c.idle) > 0 || c.Stats().ShellRuns == before; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the busy Run did not take the shell")
			}
		}
		res, _ := runAhead(t, c, transport.Cmd{Script: "wc -c", Stdin: strings.NewReader(in), Final: true})
		if got := strings.TrimSpace(string(res.Stdout)); got != fmt.Sprint(len(in)) {
			t.Errorf("stdin of %d bytes: the script read %s", len(in), got)
		}
		if err := os.WriteFile(release, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := <-busy; err != nil {
			t.Fatal(err)
		}
	}
}
