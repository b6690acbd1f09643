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
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tender-sh/tender/provision/transport"
)

// Dialer opens local connections. Its zero value is ready to use.
type Dialer struct{}

var _ transport.Dialer = Dialer{}

// Connect returns a Conn to the control machine; the Target is not used
// beyond its name.
func (Dialer) Connect(_ context.Context, t transport.Target) (transport.Conn, error) {
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
	w, err := transport.Wrap(cmd)
	if err != nil {
		return transport.Result{}, err
	}
	p := exec.Command("/bin/sh", "-c", w.Command)
	out, errb := transport.Bounded{Limit: cmd.OutputLimit()}, transport.Bounded{Limit: cmd.OutputLimit()}
	p.Stdout, p.Stderr = &out, &errb
	var in io.WriteCloser
	if stdout != nil {
		// Wait must not wait for a stdin that has not ended: the copy
		// is ours, and ends when the caller closes the reader.
		p.Stdout = stdout
		if in, err = p.StdinPipe(); err != nil {
			return transport.Result{}, fmt.Errorf("%s: %w", c.name, err)
		}
	} else {
		p.Stdin = w.Stdin
	}
	p.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.Start(); err != nil {
		return transport.Result{}, fmt.Errorf("%s: start sh: %w", c.name, err)
	}
	if in != nil {
		go func() {
			_, _ = io.Copy(in, w.Stdin)
			in.Close()
		}()
	}
	done := make(chan error, 1)
	go func() { done <- p.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = syscall.Kill(-p.Process.Pid, syscall.SIGKILL)
		<-done
		return transport.Result{}, ctx.Err()
	}
	res := transport.Result{Stdout: out.Bytes(), Stderr: errb.Bytes()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitCode()
		if res.ExitCode < 0 { // killed by a signal: report it as sh would
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				res.ExitCode = 128 + int(ws.Signal())
			}
		}
	case err != nil:
		return res, fmt.Errorf("%s: %w", c.name, err)
	}
	if out.Over || errb.Over {
		return transport.Result{}, fmt.Errorf("%s: %w", c.name, transport.ErrOutputTooLarge)
	}
	return res, nil
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
	if _, err = io.Copy(f, ctxReader{ctx, src}); err != nil {
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
	if _, err := io.Copy(dst, ctxReader{ctx, f}); err != nil {
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

// ctxReader stops a copy when its context ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (r ctxReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.r.Read(p)
}
