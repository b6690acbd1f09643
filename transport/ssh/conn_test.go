package ssh

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

func TestHandshakeRetriedWhenDropped(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{DropHandshakes: 2})
	c, err := f.dialer.Connect(context.Background(), f.target())
	if err != nil {
		t.Fatalf("two dropped handshakes must be retried: %v", err)
	}
	c.Close()
	f = newFixture(t, sshtest.Options{DropHandshakes: 1})
	f.dialer.HandshakeRetries = -1
	if _, err := f.dialer.Connect(context.Background(), f.target()); !errors.Is(err, transport.ErrUnreachable) {
		t.Fatalf("without retries a dropped handshake is unreachable: %v", err)
	}
}

// freezer forwards TCP to a server until frozen, then goes silent without
// closing anything, like a host that lost power.
type freezer struct {
	ln     net.Listener
	mu     sync.Mutex
	frozen bool
}

func newFreezer(t *testing.T, to string) *freezer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	fz := &freezer{ln: ln}
	go func() {
		for {
			a, err := ln.Accept()
			if err != nil {
				return
			}
			b, err := net.Dial("tcp", to)
			if err != nil {
				a.Close()
				continue
			}
			t.Cleanup(func() { a.Close(); b.Close() })
			go fz.pipe(a, b)
			go fz.pipe(b, a)
		}
	}()
	return fz
}

func (fz *freezer) pipe(dst io.Writer, src io.Reader) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		fz.mu.Lock()
		frozen := fz.frozen
		fz.mu.Unlock()
		if frozen || err != nil {
			return
		}
		if _, err := dst.Write(buf[:n]); err != nil {
			return
		}
	}
}

func (fz *freezer) freeze() {
	fz.mu.Lock()
	fz.frozen = true
	fz.mu.Unlock()
}

// viaFreezer connects through a freezer, with keepalives every 100ms
// (two missed: dead), and closes the connection when t ends.
func (f *fixture) viaFreezer(t *testing.T) (*Conn, *freezer) {
	t.Helper()
	fz := newFreezer(t, f.srv.Addr())
	f.dialer.KnownHosts = nil
	f.dialer.HostKeys = HostKeyInsecure
	f.dialer.KeepaliveInterval = 100 * time.Millisecond
	f.dialer.KeepaliveCountMax = 2
	tg := f.target()
	tg.Port = fz.ln.Addr().(*net.TCPAddr).Port
	c, err := f.dialer.Connect(context.Background(), tg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c.(*Conn), fz
}

func TestKeepaliveNoticesSilentHost(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	c, fz := f.viaFreezer(t)
	mustRun(t, c, transport.Cmd{Script: "true"})
	fz.freeze()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	_, err := c.Run(ctx, transport.Cmd{Script: "echo never"})
	if !errors.Is(err, transport.ErrUnreachable) {
		t.Fatalf("Run on a silent host: %v, want ErrUnreachable", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("noticed after %v", d)
	}
}

func TestServerGoneIsUnreachable(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	c := f.connect(t)
	mustRun(t, c, transport.Cmd{Script: "true"})
	f.srv.Close()
	for _, run := range []func() error{
		func() error { _, err := c.Run(context.Background(), transport.Cmd{Script: "true"}); return err },
		func() error { _, err := c.Run(context.Background(), transport.Cmd{Script: "true"}); return err },
		func() error { return c.Get(context.Background(), "/etc/hostname", io.Discard) },
	} {
		if err := run(); !errors.Is(err, transport.ErrUnreachable) {
			t.Fatalf("after the server went away: %v, want ErrUnreachable", err)
		}
	}
}

func TestHandshakeTimeout(t *testing.T) {
	t.Parallel()
	// A server that accepts and then says nothing.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { nc.Close() })
		}
	}()
	d := &Dialer{HostKeys: HostKeyInsecure, ConfigFile: "none", NoAgent: true, Password: "x",
		HandshakeTimeout: 300 * time.Millisecond, HandshakeRetries: -1}
	start := time.Now()
	_, err = d.Connect(context.Background(), transport.Target{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port})
	if !errors.Is(err, transport.ErrUnreachable) || !errors.Is(err, transport.ErrTimeout) || errors.Is(err, transport.ErrAuth) ||
		time.Since(start) > 5*time.Second {
		t.Fatalf("silent server: %v after %v", err, time.Since(start))
	}
}

// TestConnectTimedOut: the connect timeout and the system's ETIMEDOUT
// count as timeouts; a refused connection does not.
func TestConnectTimedOut(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	var nd net.Dialer
	_, deadline := nd.DialContext(ctx, "tcp", "127.0.0.1:1")
	for _, c := range []struct {
		err  error
		want bool
	}{
		{deadline, true},
		{&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ETIMEDOUT)}, true},
		{&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}, false},
	} {
		if got := connectTimedOut(c.err); got != c.want {
			t.Errorf("connectTimedOut(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
