package ssh

import (
	"testing"

	"github.com/tender-sh/tender/provision/transport"
	"github.com/tender-sh/tender/provision/transport/ssh/sshtest"
	"github.com/tender-sh/tender/provision/transport/transporttest"
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
