package ssh

import (
	"os/exec"
	"testing"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
	"github.com/tender-sh/tender/transport/transporttest"
)

func TestConformancePersistentShell(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	transporttest.Run(t, transporttest.Suite{
		Open: func(t *testing.T) transport.Conn { return f.connect(t) },
	})
}

func TestConformanceExecFallback(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{RefuseShell: true})
	transporttest.Run(t, transporttest.Suite{
		Open: func(t *testing.T) transport.Conn {
			c := f.connect(t)
			return c
		},
	})
}

func TestConformanceNoShellOption(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	f.dialer.NoShell = true
	transporttest.Run(t, transporttest.Suite{
		Open: func(t *testing.T) transport.Conn { return f.connect(t) },
	})
}

func TestConformanceWithoutSFTP(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{NoSFTP: true})
	transporttest.Run(t, transporttest.Suite{
		Open: func(t *testing.T) transport.Conn { return f.connect(t) },
	})
}

// TestConformanceBashShell runs the persistent shell under bash, as on
// hosts whose /bin/sh is bash, where frames are length-prefixed.
func TestConformanceBashShell(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	f := newFixture(t, sshtest.Options{})
	f.dialer.shellCommand = "exec bash"
	c := f.connect(t)
	mustRun(t, c, transport.Cmd{Script: "true"})
	sh := <-c.idle
	c.idle <- sh
	if sh.mode != modeLen {
		t.Fatalf("bash with GNU head must use the length-prefixed mode, got %q", sh.mode)
	}
	transporttest.Run(t, transporttest.Suite{
		Open: func(t *testing.T) transport.Conn { return f.connect(t) },
	})
}
