package ssh

import (
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

func benchRun(b *testing.B, opts sshtest.Options, noShell bool, shell ...string) {
	f := newFixture(b, opts)
	f.dialer.NoShell = noShell
	if len(shell) > 0 {
		f.dialer.shellCommand = shell[0]
	}
	c := f.connect(b)
	cmd := transport.Cmd{Script: "cat; echo $X", Env: map[string]string{"X": "1"}}
	mustRun(b, c, cmd)
	b.ResetTimer()
	for b.Loop() {
		cmd.Stdin = strings.NewReader("input ")
		if res := mustRun(b, c, cmd); string(res.Stdout) != "input 1\n" {
			b.Fatalf("%q", res.Stdout)
		}
	}
}

// BenchmarkRunPersistentShell is one Run on the persistent shell of an
// in-process server on loopback: the remote shell's work plus one exchange.
func BenchmarkRunPersistentShell(b *testing.B) { benchRun(b, sshtest.Options{}, false) }

// BenchmarkRunPersistentShellBash is the persistent shell under bash, which
// takes length-prefixed frames.
func BenchmarkRunPersistentShellBash(b *testing.B) {
	benchRun(b, sshtest.Options{}, false, "exec bash")
}

// BenchmarkRunExec is the same Run on its own exec channel.
func BenchmarkRunExec(b *testing.B) { benchRun(b, sshtest.Options{}, true) }

// The same with 10 ms added to every client-to-server message, as a
// nearby data centre would: the persistent shell pays it once per Run.
func BenchmarkRunPersistentShellRTT10ms(b *testing.B) {
	benchRun(b, sshtest.Options{Latency: 10 * time.Millisecond}, false)
}

// BenchmarkRunExecRTT10ms: exec channels pay the latency about three times.
func BenchmarkRunExecRTT10ms(b *testing.B) {
	benchRun(b, sshtest.Options{Latency: 10 * time.Millisecond}, true)
}
