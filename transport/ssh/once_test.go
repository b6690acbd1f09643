package ssh

import (
	"strings"
	"testing"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

// TestAloneRunSkipsTheShell proves that a Run marked Alone on a fresh
// connection runs on one exec channel without the persistent shell (so
// without its setup), with the same stdout, stderr, exit status and
// end-of-file stdin a framed Run gives, and that once a shell is there, or
// when the Run has stdin, Alone changes nothing.
func TestAloneRunSkipsTheShell(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	cases := []struct {
		script, stdout, stderr string
		code                   int
	}{
		{"echo out; echo err >&2; exit 3", "out\n", "err\n", 3},
		{"cat; echo \"it's $X\"", "it's x\n", "", 0},
		{"printf 'no newline'", "no newline", "", 0},
		{"false", "", "", 1},
		{"f() { return 4; }; f", "", "", 4},
	}
	for _, tc := range cases {
		c := f.connect(t)
		before := f.srv.Stats()
		res := mustRun(t, c, transport.Cmd{Script: tc.script, Env: map[string]string{"X": "x"}, Alone: true})
		if string(res.Stdout) != tc.stdout || string(res.Stderr) != tc.stderr || res.ExitCode != tc.code {
			t.Errorf("%q: stdout %q stderr %q exit %d, want %q %q %d", tc.script, res.Stdout, res.Stderr, res.ExitCode, tc.stdout, tc.stderr, tc.code)
		}
		st, after := c.Stats(), f.srv.Stats()
		if st.ShellRuns != 0 || st.ExecRuns != 1 || after.Channels-before.Channels != 1 || after.Execs-before.Execs != 1 {
			t.Errorf("%q: Conn.Stats %+v, server %d channels %d execs, want one exec and no shell", tc.script, st,
				after.Channels-before.Channels, after.Execs-before.Execs)
		}
	}

	// A shell already started serves an Alone Run; stdin keeps the frame.
	c := f.connect(t)
	mustRun(t, c, transport.Cmd{Script: "true"})
	if res := mustRun(t, c, transport.Cmd{Script: "echo shell", Alone: true}); string(res.Stdout) != "shell\n" {
		t.Fatalf("%q", res.Stdout)
	}
	if st := c.Stats(); st.ShellRuns != 2 || st.ExecRuns != 0 {
		t.Errorf("Alone with a shell there: %+v, want 2 shell Runs", st)
	}
	c = f.connect(t)
	res := mustRun(t, c, transport.Cmd{Script: "cat", Stdin: strings.NewReader("in"), Alone: true})
	if string(res.Stdout) != "in" || c.Stats().ShellRuns != 1 {
		t.Errorf("Alone with stdin: %q, %+v", res.Stdout, c.Stats())
	}
	// A long script is not read by a sh from the channel.
	c = f.connect(t)
	long := "x=" + strings.Repeat("a", onceLimit) + "\necho ${#x}"
	if res := mustRun(t, c, transport.Cmd{Script: long, Alone: true}); strings.TrimSpace(string(res.Stdout)) != "16384" || c.Stats().ShellRuns != 1 {
		t.Errorf("a long Alone script: %q, %+v", res.Stdout, c.Stats())
	}
}

// TestAloneRunWhereTheShellIsRefused: a host that refuses a bare sh on
// an exec channel (as it refuses the persistent shell) still runs an
// Alone Run, as an exec Run, and is not asked for a shell again.
func TestAloneRunWhereTheShellIsRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{RefuseShell: true})
	c := f.connect(t)
	for range 2 {
		if res := mustRun(t, c, transport.Cmd{Script: "echo alone; exit 2", Alone: true}); string(res.Stdout) != "alone\n" || res.ExitCode != 2 {
			t.Fatalf("%q exit %d", res.Stdout, res.ExitCode)
		}
	}
	if st := f.srv.Stats(); st.Execs != 3 {
		t.Errorf("%d exec requests, want 3 (one refused sh, two Runs)", st.Execs)
	}
}

func TestCancelKillsAloneScript(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	c := f.connect(t)
	cancelledRun(t, c, "; echo never", true)
	if st := c.Stats(); st.ShellRuns != 0 {
		t.Errorf("the Alone Run started the shell: %+v", st)
	}
}
