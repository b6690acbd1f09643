// Package local is the transport for the control machine itself
// (ansible_connection=local): scripts run under /bin/sh as child
// processes, files move with the os package, and Dial dials directly.
package local

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	osuser "os/user"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/tender-sh/tender/transport"
)

// Dialer opens local connections. Its zero value is ready to use.
type Dialer struct{}

var _ transport.Dialer = Dialer{}

// Connect returns a Conn to the control machine; the Target is not used
// beyond its name.
func (Dialer) Connect(_ context.Context, t transport.Target) (transport.Conn, error) {
	if err := platformOK(); err != nil {
		return nil, err
	}
	return &Conn{name: t.Name}, nil
}

// Conn runs on the control machine. It is safe for concurrent use.
type Conn struct {
	name   string
	closed atomic.Bool
}

var _ transport.Conn = (*Conn)(nil)

var errClosed = errors.New("local connection is closed")

// Run runs cmd with /bin/sh in its own process group; when ctx ends the
// whole group is killed, so a script's children do not outlive it.
func (c *Conn) Run(ctx context.Context, cmd transport.Cmd) (transport.Result, error) {
	return c.run(ctx, cmd, nil)
}

// Stream runs cmd as Run does, its stdin passed on as it is read and its
// stdout written to stdout as it arrives; see transport.Streamer.
func (c *Conn) Stream(ctx context.Context, cmd transport.Cmd, stdout io.Writer) (transport.Result, error) {
	return c.run(ctx, cmd, stdout)
}

// run is Run, or Stream when stdout is not nil.
func (c *Conn) run(ctx context.Context, cmd transport.Cmd, stdout io.Writer) (transport.Result, error) {
	if c.closed.Load() {
		return transport.Result{}, errClosed
	}
	return Process{Name: c.name, Argv: []string{"/bin/sh", "-c"}}.Run(ctx, cmd, stdout)
}

// Put writes src to dst atomically through a temporary file in dst's
// directory, synced and given its mode before the rename.
func (c *Conn) Put(ctx context.Context, dst string, src io.Reader, mode fs.FileMode) (err error) {
	if c.closed.Load() {
		return errClosed
	}
	f, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tender-*")
	if err != nil {
		return fmt.Errorf("%s: put %s: %w", c.name, dst, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = io.Copy(f, transport.ContextReader{Ctx: ctx, R: src}); err != nil {
		return fmt.Errorf("%s: put %s: %w", c.name, dst, err)
	}
	if err = f.Chmod(mode.Perm()); err != nil {
		return fmt.Errorf("%s: put %s: %w", c.name, dst, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("%s: put %s: %w", c.name, dst, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("%s: put %s: %w", c.name, dst, err)
	}
	if err = os.Rename(f.Name(), dst); err != nil {
		return fmt.Errorf("%s: put %s: %w", c.name, dst, err)
	}
	return nil
}

// Get copies the file src into dst.
func (c *Conn) Get(ctx context.Context, src string, dst io.Writer) error {
	if c.closed.Load() {
		return errClosed
	}
	f, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("%s: get: %w", c.name, err)
	}
	defer f.Close()
	if _, err := io.Copy(dst, transport.ContextReader{Ctx: ctx, R: f}); err != nil {
		return fmt.Errorf("%s: get %s: %w", c.name, src, err)
	}
	return nil
}

// Dial connects to addr from the control machine.
func (c *Conn) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if c.closed.Load() {
		return nil, errClosed
	}
	d := net.Dialer{Timeout: 30 * time.Second}
	return d.DialContext(ctx, network, addr)
}

// Close marks the connection closed; later calls fail.
func (c *Conn) Close() error {
	c.closed.Store(true)
	return nil
}

// OnController reports true: local connections run on the control
// machine (see transport.Controller).
func (Dialer) OnController() bool { return true }

// Params: the local type reads no variable, as Ansible's local
// connection takes no address, user or key.
func (Dialer) Params() transport.ConnParams { return transport.ConnParams{} }

// Establish names the user tender runs as, as Ansible's local connection
// does.
func (Dialer) Establish(transport.Target) string {
	user := ""
	if u, err := osuser.Current(); err == nil {
		user = u.Username
	}
	return "ESTABLISH LOCAL CONNECTION FOR USER: " + user
}
