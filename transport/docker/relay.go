package docker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/tender-sh/tender/internal/osproc"
	"github.com/tender-sh/tender/transport"
)

// relayScript connects the script's stdin and stdout to host:port from
// inside the container, with the first of bash (its /dev/tcp), socat and
// nc that the container has. With bash, the "+" it prints says the
// connection opened; socat and nc print it before connecting, so that a
// refused connection shows as the stream ending.
const relayScript = `h=$1 p=$2
if command -v bash >/dev/null 2>&1; then
	exec bash -c 'exec 3<>"/dev/tcp/$0/$1" || exit 1; printf +; cat <&3 & cat >&3; wait' "$h" "$p"
fi
if command -v socat >/dev/null 2>&1; then printf +; exec socat - "TCP:$h:$p"; fi
if command -v nc >/dev/null 2>&1; then printf +; exec nc "$h" "$p"; fi
echo "the container has no bash, socat or nc to connect to $h:$p with" >&2
exit 127`

// Dial opens a TCP connection to addr from inside the container, so that
// the container's network, names and firewall apply, by running a relay
// there (relayScript): the container needs bash, socat or nc for it.
// The connection ends when either side closes.
func (c *Conn) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if c.closed.Load() {
		return nil, errClosed
	}
	switch network {
	case "tcp", "tcp4", "tcp6":
	default:
		return nil, fmt.Errorf("%s: the docker connection dials tcp only, not %s", c.name, network)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("%s: dial %s: %w", c.name, addr, err)
	}
	script := "set -- " + transport.Quote(host) + " " + transport.Quote(port) + "\n" + relayScript
	w, err := transport.Wrap(transport.Cmd{Script: script})
	if err != nil {
		return nil, err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	argv := append(c.exec(), "/bin/sh", "-c", w.Command)
	p := exec.Command(argv[0], argv[1:]...)
	stderr := &transport.Bounded{Limit: 4096}
	p.Stdin, p.Stdout, p.Stderr = inR, outW, stderr
	osproc.Group(p, false)
	err = p.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("%s: start %s: %w", c.name, argv[0], err)
	}
	rc := &relayConn{r: outR, w: inW, p: p, done: make(chan struct{}), local: addrOf("docker", c.container), remote: addrOf(network, addr)}
	go func() {
		_ = p.Wait()
		close(rc.done)
	}()
	if err := rc.handshake(ctx, w.Stdin); err != nil {
		rc.Close()
		<-rc.done
		if msg := strings.TrimSpace(string(stderr.Bytes())); msg != "" {
			err = errors.New(msg)
		}
		return nil, fmt.Errorf("%s: dial %s from container %s: %w", c.name, addr, c.container, err)
	}
	return rc, nil
}

// relayConn is a connection through a relay process's stdin and stdout.
type relayConn struct {
	r, w          *os.File
	p             *exec.Cmd
	done          chan struct{} // closed when the process has exited
	once          sync.Once
	local, remote net.Addr
}

// handshake sends the wrapped script and waits for the relay's "+", or
// for ctx to end.
func (rc *relayConn) handshake(ctx context.Context, script io.Reader) error {
	res := make(chan error, 1)
	go func() {
		if _, err := io.Copy(rc.w, script); err != nil {
			res <- err
			return
		}
		var b [1]byte
		if _, err := io.ReadFull(rc.r, b[:]); err != nil {
			res <- errors.New("the relay in the container ended before connecting")
			return
		}
		if b[0] != '+' {
			res <- fmt.Errorf("the relay in the container answered %q", b[:])
			return
		}
		res <- nil
	}()
	select {
	case err := <-res:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (rc *relayConn) Read(b []byte) (int, error)  { return rc.r.Read(b) }
func (rc *relayConn) Write(b []byte) (int, error) { return rc.w.Write(b) }

// Close closes both pipes and kills the relay's docker command.
func (rc *relayConn) Close() error {
	rc.once.Do(func() {
		rc.w.Close()
		rc.r.Close()
		_ = osproc.Kill(rc.p)
	})
	return nil
}

func (rc *relayConn) LocalAddr() net.Addr  { return rc.local }
func (rc *relayConn) RemoteAddr() net.Addr { return rc.remote }

func (rc *relayConn) SetDeadline(t time.Time) error {
	return errors.Join(rc.r.SetReadDeadline(t), rc.w.SetWriteDeadline(t))
}
func (rc *relayConn) SetReadDeadline(t time.Time) error  { return rc.r.SetReadDeadline(t) }
func (rc *relayConn) SetWriteDeadline(t time.Time) error { return rc.w.SetWriteDeadline(t) }

// addr is a net.Addr of a network and a string.
type addr struct{ network, s string }

func addrOf(network, s string) net.Addr { return addr{network, s} }

func (a addr) Network() string { return a.network }
func (a addr) String() string  { return a.s }
