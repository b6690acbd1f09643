package transporttest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net"
	"sync/atomic"
	"time"

	"github.com/tender-sh/tender/transport"
)

// fakeConn is one connection to a fake host. Closing it leaves the host
// and its files as they are; calls on a closed connection fail at once
// and are not recorded.
type fakeConn struct {
	h      *Host
	closed atomic.Bool
}

var (
	_ transport.Conn  = (*fakeConn)(nil)
	_ transport.Ahead = (*fakeConn)(nil)
)

var errClosed = errors.New("fake connection is closed")

func (c *fakeConn) Run(ctx context.Context, cmd transport.Cmd) (transport.Result, error) {
	return c.runCall(ctx, cmd, false)
}

// RunAhead implements transport.Ahead: the queued scripts run at once
// after cmd, in the same round trip, each only when the one before it
// ran and exited 0.
func (c *fakeConn) RunAhead(ctx context.Context, cmd transport.Cmd, next []transport.Cmd) (transport.Result, []*transport.Pending, error) {
	res, err := c.runCall(ctx, cmd, false)
	ok := err == nil && res.ExitCode == 0
	pend := make([]*transport.Pending, len(next))
	for i, n := range next {
		pend[i] = transport.NewPending(nil)
		if !ok || ctx.Err() != nil {
			pend[i].Resolve(transport.Result{}, false, nil)
			ok = false
			continue
		}
		start := time.Now()
		r, e := c.runCall(ctx, n, true)
		r.Start, r.End = start, time.Now()
		pend[i].Resolve(r, true, e)
		ok = e == nil && r.ExitCode == 0
	}
	return res, pend, err
}

func (c *fakeConn) runCall(ctx context.Context, cmd transport.Cmd, queued bool) (transport.Result, error) {
	if c.closed.Load() {
		return transport.Result{}, errClosed
	}
	call := Call{Op: OpRun, Script: cmd.Text(), Env: maps.Clone(cmd.Env), Queued: queued}
	if cmd.Become != nil {
		b := *cmd.Become
		call.Become = &b
	}
	i, err := c.h.begin(ctx, call)
	var res transport.Result
	if err == nil {
		res, err = c.run(ctx, i, cmd)
	}
	c.h.end(i, err)
	return res, err
}

func (c *fakeConn) run(ctx context.Context, i int, cmd transport.Cmd) (transport.Result, error) {
	if cmd.Stdin != nil {
		data, err := readAll(ctx, cmd.Stdin)
		if err != nil {
			return transport.Result{}, fmt.Errorf("%s: reading the script's stdin: %w", c.h.name, err)
		}
		c.h.record(i, func(c *Call) { c.Stdin = data })
		cmd.Stdin = bytes.NewReader(data)
	}
	c.h.mu.Lock()
	handler := c.h.handler
	c.h.mu.Unlock()
	return handler(ctx, c.h, cmd)
}

func (c *fakeConn) Put(ctx context.Context, dst string, src io.Reader, mode fs.FileMode) error {
	if c.closed.Load() {
		return errClosed
	}
	i, err := c.h.begin(ctx, Call{Op: OpPut, Path: dst, Mode: mode})
	if err == nil {
		err = c.put(ctx, i, dst, src, mode)
	}
	c.h.end(i, err)
	return err
}

func (c *fakeConn) put(ctx context.Context, i int, dst string, src io.Reader, mode fs.FileMode) error {
	p, err := absPath(dst)
	if err != nil {
		return fmt.Errorf("%s: put: %w", c.h.name, err)
	}
	// The whole source is read before anything is stored, so a source
	// that breaks leaves the host as it was.
	data, err := readAll(ctx, src)
	if err != nil {
		return fmt.Errorf("%s: put %s: reading the source: %w", c.h.name, dst, err)
	}
	c.h.record(i, func(c *Call) { c.Data = data })
	c.h.mu.Lock()
	defer c.h.mu.Unlock()
	if err := c.h.putLocked(p, data, mode); err != nil {
		return fmt.Errorf("%s: put %s: %w", c.h.name, dst, err)
	}
	return nil
}

func (c *fakeConn) Get(ctx context.Context, src string, dst io.Writer) error {
	if c.closed.Load() {
		return errClosed
	}
	i, err := c.h.begin(ctx, Call{Op: OpGet, Path: src})
	if err == nil {
		err = c.get(src, dst)
	}
	c.h.end(i, err)
	return err
}

func (c *fakeConn) get(src string, dst io.Writer) error {
	p, err := absPath(src)
	if err != nil {
		return fmt.Errorf("%s: get: %w", c.h.name, err)
	}
	f, ok := c.h.File(p)
	switch {
	case !ok:
		return fmt.Errorf("%s: get %s: %w", c.h.name, src, fs.ErrNotExist)
	case f.Mode.IsDir():
		return fmt.Errorf("%s: get %s: is a directory", c.h.name, src)
	}
	_, err = dst.Write(f.Data)
	return err
}

func (c *fakeConn) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if c.closed.Load() {
		return nil, errClosed
	}
	i, err := c.h.begin(ctx, Call{Op: OpDial, Network: network, Addr: addr})
	var nc net.Conn
	if err == nil {
		c.h.mu.Lock()
		dial := c.h.dial
		c.h.mu.Unlock()
		nc, err = dial(ctx, network, addr)
	}
	c.h.end(i, err)
	return nc, err
}

// Close marks the connection closed (recorded as OpClose); the host keeps
// its files and may be connected to again.
func (c *fakeConn) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	c.h.mu.Lock()
	defer c.h.mu.Unlock()
	c.h.calls = append(c.h.calls, Call{Seq: len(c.h.calls) + 1, Op: OpClose})
	return nil
}

// readAll reads all of r, failing if ctx ended meanwhile.
func readAll(ctx context.Context, r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(r)
	if err == nil {
		err = ctx.Err()
	}
	return data, err
}
