package ssh

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

// TestOneRoundTripPerRun proves that a Run on the persistent shell costs one
// round trip and opens nothing. The same Runs are timed on one connection
// without and with latency L added to every client-to-server message: the
// difference of the fastest Runs, in units of L, is the round trips per
// Run (about 1 on the persistent shell, about 3 on exec channels). Load
// only adds time, so the fastest of several Runs is the honest figure; a
// measurement spoiled by a busy machine is repeated.
func TestOneRoundTripPerRun(t *testing.T) {
	const latency = 80 * time.Millisecond
	measure := func(opts sshtest.Options) (float64, sshtest.Stats) {
		f := newFixture(t, opts)
		c := f.connect(t)
		mustRun(t, c, transport.Cmd{Script: "true"}) // starts the shell
		median := func() time.Duration {
			var ds []time.Duration
			for i := range 9 {
				start := time.Now()
				res := mustRun(t, c, transport.Cmd{Script: "cat; echo $X", Env: map[string]string{"X": strconv.Itoa(i)},
					Stdin: strings.NewReader("in:")})
				ds = append(ds, time.Since(start))
				if got := string(res.Stdout); got != fmt.Sprintf("in:%d\n", i) {
					t.Fatalf("run %d: %q", i, got)
				}
			}
			return slices.Min(ds)
		}
		before, cb := f.srv.Stats(), c.Stats()
		base := median()
		f.srv.SetLatency(latency)
		slow := median()
		after, ca := f.srv.Stats(), c.Stats()
		if opts.RefuseShell && (ca.ExecRuns-cb.ExecRuns != 18 || ca.ShellRuns != 0) ||
			!opts.RefuseShell && (ca.ShellRuns-cb.ShellRuns != 18 || ca.Channels != cb.Channels) {
			t.Errorf("Conn.Stats before %+v after %+v", cb, ca)
		}
		trips := float64(slow-base) / float64(latency)
		t.Logf("shell refused %v: fastest Run %v without latency, %v with %v: %.2f round trips; %d channels, %d requests for 18 Runs",
			opts.RefuseShell, base, slow, latency, trips, after.Channels-before.Channels, after.Requests-before.Requests)
		return trips, sshtest.Stats{Channels: after.Channels - before.Channels, Requests: after.Requests - before.Requests}
	}
	trips, st := measure(sshtest.Options{})
	if st.Channels != 0 || st.Requests != 0 {
		t.Errorf("Runs on the persistent shell opened %d channels and sent %d requests, want none", st.Channels, st.Requests)
	}
	for try := 0; trips > 1.5 && try < 2; try++ {
		trips, _ = measure(sshtest.Options{})
	}
	if trips > 1.5 {
		t.Errorf("a Run on the persistent shell cost %.2f round trips, want 1", trips)
	}
	if trips, _ = measure(sshtest.Options{RefuseShell: true}); trips < 2 {
		t.Errorf("an exec Run cost %.2f round trips, expected at least 2 (is the latency applied?)", trips)
	}
}

func TestStdinBinaryIsolated(t *testing.T) {
	t.Parallel()
	for i, opts := range []sshtest.Options{{}, {RefuseShell: true}, {}} {
		f := newFixture(t, opts)
		if i == 2 {
			f.dialer.shellCommand = "exec bash" // length-prefixed frames
		}
		c := f.connect(t)
		all := make([]byte, 0, 512)
		for i := range 512 {
			all = append(all, byte(i))
		}
		big := make([]byte, inBandLimit+1000) // too big for a frame: streams on exec
		_, _ = rand.Read(big)
		for _, in := range [][]byte{all, []byte("%s%d\\n'\"$(id)\n\n"), big[:100000], big} {
			res := mustRun(t, c, transport.Cmd{Script: "cat", Stdin: bytes.NewReader(in)})
			if !bytes.Equal(res.Stdout, in) {
				t.Fatalf("refuse shell %v: %d bytes of stdin came back as %d different bytes", opts.RefuseShell, len(in), len(res.Stdout))
			}
		}
		// A script that reads part of its stdin leaves the rest to nobody,
		// and the next Run's frame is intact.
		res := mustRun(t, c, transport.Cmd{Script: "head -c 3; echo", Stdin: bytes.NewReader(big[:50000])})
		if !bytes.Equal(res.Stdout, append(big[:3:3], '\n')) {
			t.Fatalf("partial read: %q", res.Stdout)
		}
		if res := mustRun(t, c, transport.Cmd{Script: "cat; echo next"}); string(res.Stdout) != "next\n" {
			t.Fatalf("the next Run saw %q", res.Stdout)
		}
		// A script too big for a frame runs on exec, its stdin after it;
		// one that nearly fills a frame leaves its stdin the rest.
		long := "x=" + strings.Repeat("y", inBandLimit) + "\ncat; echo ${#x}"
		if res := mustRun(t, c, transport.Cmd{Script: long, Stdin: bytes.NewReader([]byte("in\n"))}); string(res.Stdout) != fmt.Sprintf("in\n%d\n", inBandLimit) {
			t.Fatalf("a script past the frame's bound: %.40q", res.Stdout)
		}
		near := "x=" + strings.Repeat("y", inBandLimit-1000) + "\ncat | wc -c"
		if res := mustRun(t, c, transport.Cmd{Script: near, Stdin: bytes.NewReader(big[:5000])}); strings.TrimSpace(string(res.Stdout)) != "5000" {
			t.Fatalf("a script near the frame's bound, its stdin over: %q", res.Stdout)
		}
	}
}

func TestBackgroundOutputStaysWithItsRun(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	c := f.connect(t)
	res := mustRun(t, c, transport.Cmd{Script: "(sleep 0.3; echo late; echo late >&2) & echo now"})
	if string(res.Stdout) != "now\n" {
		t.Fatalf("%q", res.Stdout)
	}
	time.Sleep(500 * time.Millisecond)
	res = mustRun(t, c, transport.Cmd{Script: "echo next"})
	if string(res.Stdout) != "next\n" || len(res.Stderr) != 0 {
		t.Fatalf("a background process wrote into a later Run: %q %q", res.Stdout, res.Stderr)
	}
}

func TestCancelKillsScriptOnExecChannel(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{RefuseShell: true})
	c := f.connect(t)
	// The script's child, not the script, holds the pid file's pid.
	cancelledRun(t, c, "; echo never", false)
}

func TestCancelKillsScriptAndKeepsShell(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	c := f.connect(t)
	mustRun(t, c, transport.Cmd{Script: "true"})
	// The script runs in a subshell of the persistent shell, where $$ is
	// the persistent shell's pid: the pid comes from the sleep itself.
	cancelledRun(t, c, "", false)
	deadline := time.Now().Add(5 * time.Second)
	for len(c.idle) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the persistent shell did not come back after the cancel")
		}
		time.Sleep(20 * time.Millisecond)
	}
	before := f.srv.Stats()
	if res := mustRun(t, c, transport.Cmd{Script: "echo same-shell"}); string(res.Stdout) != "same-shell\n" {
		t.Fatalf("%q", res.Stdout)
	}
	if f.srv.Stats().Channels != before.Channels {
		t.Fatal("the Run after a cancel did not reuse the persistent shell")
	}
}

func TestConcurrentRunsStayUnderSessionLimit(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{MaxSessions: 3})
	f.dialer.MaxSessions = 3
	c := f.connect(t)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := c.Run(context.Background(), transport.Cmd{Script: "sleep 0.05; echo " + strconv.Itoa(i)})
			if err != nil || string(res.Stdout) != strconv.Itoa(i)+"\n" {
				t.Errorf("run %d: %q %v", i, res.Stdout, err)
			}
		}()
	}
	wg.Wait()
	if err := c.Put(context.Background(), filepath.Join(t.TempDir(), "f"), strings.NewReader("x"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestShellRefusedTriedOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{RefuseShell: true})
	c := f.connect(t)
	for range 5 {
		mustRun(t, c, transport.Cmd{Script: "true"})
	}
	if st := f.srv.Stats(); st.Execs != 6 || st.Sessions != 6 {
		t.Fatalf("5 Runs after one refused shell: %d execs in %d sessions, want 6 and 6", st.Execs, st.Sessions)
	}
}

func TestTempDirGoneIsAnErrorNotAHang(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // the in-process server's shells inherit it
	f := newFixture(t, sshtest.Options{})
	c := f.connect(t)
	mustRun(t, c, transport.Cmd{Script: "true"})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// The script replaces the shell's private directory with a file, so
	// its output files cannot be written.
	_, err := c.Run(ctx, transport.Cmd{Script: `for x in "$TMPDIR"/.tender.*; do rm -rf "$x"; : > "$x"; done`})
	if err == nil || ctx.Err() != nil || !strings.Contains(err.Error(), "could not write") {
		t.Fatalf("a Run whose output files vanished: %v (ctx %v)", err, ctx.Err())
	}
	if res := mustRun(t, c, transport.Cmd{Script: "echo recovered"}); string(res.Stdout) != "recovered\n" {
		t.Fatalf("the shell did not make a new directory: %q", res.Stdout)
	}
}

// cancelOnFile returns a context cancelled once path holds a line (the
// script under test has started, however loaded the machine is), or after
// 20 seconds.
func cancelOnFile(path string) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && ctx.Err() == nil; time.Sleep(10 * time.Millisecond) {
			if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
				break
			}
		}
		cancel()
	}()
	return ctx, cancel
}

// cancelledRun runs a script on c that starts a long sleep (writing its
// pid), cancels the Run once the sleep has started, and waits for the
// sleep to be killed; rest follows the sleep in the script.
func cancelledRun(t *testing.T, c *Conn, rest string, alone bool) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := cancelOnFile(pidFile)
	defer cancel()
	_, err := c.Run(ctx, transport.Cmd{Script: "sh -c 'echo $$ > " + pidFile + "; exec sleep 30'" + rest, Alone: alone})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	data, _ := os.ReadFile(pidFile)
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatalf("pid file: %q", data)
	}
	// A killed process that is not reaped yet (a zombie) is gone too; the
	// bound is generous because a loaded machine is slow to deliver it.
	for deadline := time.Now().Add(15 * time.Second); alive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the cancelled script's child is still running")
		}
	}
}

// TestAnswerInOneWrite pins that the persistent shell prints a frame's
// answer in one write where it can (an empty output, or a few lines of
// text): sshd sends a packet per piece the shell writes, which costs the
// host and the controller a packet each.
func TestAnswerInOneWrite(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	c := f.connect(t)
	mustRun(t, c, transport.Cmd{Script: "true"})
	var seventy strings.Builder
	for i := range 70 {
		fmt.Fprintf(&seventy, "%d\n", i)
	}
	cases := []struct {
		cmd         transport.Cmd
		out, errOut string
		writes      int64
		exitStatus  int
	}{
		{transport.Cmd{Script: "true"}, "", "", 1, 0},
		{transport.Cmd{Script: "exit 3"}, "", "", 1, 3},
		{transport.Cmd{Script: "for i in 1 2 3 4 5 6 7 8; do echo line$i; done; printf tail", Lines: true},
			"line1\nline2\nline3\nline4\nline5\nline6\nline7\nline8\ntail", "", 1, 0},
		// Past 64 lines the rest is copied by cat; stderr by cat too.
		{transport.Cmd{Script: "i=0; while [ $i -lt 70 ]; do echo $i; i=$((i+1)); done", Lines: true}, seventy.String(), "", 3, 0},
		{transport.Cmd{Script: "echo a; echo oops >&2; exit 1", Lines: true}, "a\n", "oops\n", 4, 1},
		{transport.Cmd{Script: "echo oops >&2"}, "", "oops\n", 4, 0},
	}
	for i, tc := range cases {
		before := f.srv.Stats().Writes
		res := mustRun(t, c, tc.cmd)
		// At most: a slow reader may find two writes in the pipe at once.
		if got := f.srv.Stats().Writes - before; got > tc.writes {
			t.Errorf("case %d: the answer took %d writes, want at most %d", i, got, tc.writes)
		}
		if string(res.Stdout) != tc.out || string(res.Stderr) != tc.errOut || res.ExitCode != tc.exitStatus {
			t.Errorf("case %d: stdout %q, stderr %q, exit status %d; want %q, %q, %d",
				i, res.Stdout, res.Stderr, res.ExitCode, tc.out, tc.errOut, tc.exitStatus)
		}
	}
}

// TestDirectRun runs Cmd.Direct scripts on the persistent shell: their
// stdout comes straight into the answer (no output file is made for it),
// stderr and the exit status as for any Run, and a temporary directory
// gone is the same error.
func TestDirectRun(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // the in-process server's shells inherit it
	f := newFixture(t, sshtest.Options{})
	c := f.connect(t)
	res := mustRun(t, c, transport.Cmd{Script: `[ -e "$__tender_o" ] && echo file || echo direct; echo err >&2; exit 4`, Direct: true})
	if string(res.Stdout) != "direct\n" || string(res.Stderr) != "err\n" || res.ExitCode != 4 {
		t.Fatalf("direct Run: stdout %q, stderr %q, exit status %d", res.Stdout, res.Stderr, res.ExitCode)
	}
	if res := mustRun(t, c, transport.Cmd{Script: `[ -e "$__tender_o" ] && echo file || echo direct`}); string(res.Stdout) != "file\n" {
		t.Fatalf("a Run that is not Direct: stdout %q", res.Stdout)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := c.Run(ctx, transport.Cmd{Script: `for x in "$TMPDIR"/.tender.*; do rm -rf "$x"; : > "$x"; done; echo out`, Direct: true})
	if err == nil || ctx.Err() != nil || !strings.Contains(err.Error(), "could not write") {
		t.Fatalf("a direct Run whose stderr file vanished: %v (ctx %v)", err, ctx.Err())
	}
	if res := mustRun(t, c, transport.Cmd{Script: "echo recovered", Direct: true}); string(res.Stdout) != "recovered\n" {
		t.Fatalf("after: %q", res.Stdout)
	}
}

// TestShellStderrUnread: the persistent shell's own stderr goes nowhere
// and its channel's stderr is never read. What a host prints there before
// the shell starts (100 KB here) costs nothing but buffer, and a script's
// stderr still comes back in its Result, however large.
func TestShellStderrUnread(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	f.dialer.shellCommand = "head -c 100000 /dev/zero | tr '\\0' x >&2; exec /bin/sh"
	c := f.connect(t)
	for range 3 {
		res := mustRun(t, c, transport.Cmd{Script: "head -c 300000 /dev/zero | tr '\\0' e >&2; echo out"})
		if string(res.Stdout) != "out\n" || len(res.Stderr) != 300000 || strings.Trim(string(res.Stderr), "e") != "" {
			t.Fatalf("stdout %q, %d bytes of stderr", res.Stdout, len(res.Stderr))
		}
	}
	if st := c.Stats(); st.ShellRuns != 3 || st.ExecRuns != 0 {
		t.Fatalf("the Runs did not all use the persistent shell: %+v", st)
	}
}
