package provision

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net"
	"slices"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/transport"
)

// Tasks sent ahead.
//
// A task whose module's last script is Final (transport.Cmd) is done, and
// did not fail, when that script exits 0. When nothing the next tasks of
// its list read can change with its outcome, their first scripts travel
// in the same write, each to run only when the one before it exited 0
// (transport.Ahead): a host works through a run of such tasks in one
// round trip. Each task still runs at its turn, as ever: its conditions,
// arguments and module are evaluated again, and its module's first script
// is answered from what came back, when it is the script that was sent.
//
// What could make a task's outcome differ from its exit status, or let a
// later task read what it changes, ends the run of tasks sent ahead:
// register, a loop, until, failed_when, a changed_when that is not a
// constant, any_errors_fatal, max_fail_percentage, run_once, delegate_to,
// async, a notify of no handler, a task the engine or the controller
// carries out (set_fact, debug, assert, meta, …), and --step. A task sent
// ahead has its scripts made ahead of its turn by running its module on
// a connection that keeps the first script and runs nothing; its
// templates must then be pure (expr.Pure): no lookup, no clock, no
// random, no ansible_play_hosts (which another host's failure changes).

// maxAhead bounds the scripts sent behind one task.
const maxAhead = 32

// volatileVars change while the hosts of a play work through a task.
var volatileVars = map[string]bool{"ansible_play_hosts": true, "ansible_play_batch": true, "play_hosts": true}

// errCaptured is what a module gets from its connection when it runs
// only to give its first script.
var errCaptured = errors.New("the task's script was taken to be sent ahead")

// aheadState is a host's tasks sent ahead.
type aheadState struct {
	next    []*playbooks.Task // the tasks after the running one in its list (runList)
	current *playbooks.Task   // the task whose module runs
	queue   []*aheadEntry     // scripts sent ahead, in the order of their tasks
	// gateShut: the script before the queue's first did not exit 0, so
	// none of the queue runs.
	gateShut bool
	// capturing is set while a task's module runs only to give its
	// first script.
	capturing *capture
}

// aheadEntry is one task's first script, sent ahead.
type aheadEntry struct {
	task  *playbooks.Task
	base  transport.Conn
	cmd   transport.Cmd // without Stdin: stdin holds it
	stdin []byte
	pend  *transport.Pending
}

// capture is what a module gave while it ran for its first script.
type capture struct {
	done  func() // ends the module's context
	pure  *expr.Pure
	base  transport.Conn
	cmd   *transport.Cmd
	stdin []byte
	ok    bool
}

// aheadConn is the view of a host's connection that a task's module
// gets: it answers the task's first script from what was sent ahead,
// sends the next tasks' scripts behind a Final one, and keeps the script
// of a module running for it (capture).
type aheadConn struct {
	transport.Conn
	pr *playRun
	h  *hostRun
}

func (a *aheadConn) Run(ctx context.Context, cmd transport.Cmd) (transport.Result, error) {
	st := &a.h.ahead
	if c := st.capturing; c != nil {
		c.keep(a.Conn, cmd)
		return transport.Result{}, errCaptured
	}
	if len(st.queue) > 0 {
		e := st.queue[0]
		same, stdin := false, []byte(nil)
		if e.task == st.current && e.base == a.Conn {
			var err error
			if same, stdin, err = sameCmd(e, cmd); err != nil {
				return transport.Result{}, err
			}
			if stdin != nil {
				cmd.Stdin = bytes.NewReader(stdin)
			}
		}
		if same {
			st.queue = st.queue[1:]
			res, ran, err := e.pend.Wait(ctx)
			st.gateShut = !ran || err != nil || res.ExitCode != 0
			if ran || err != nil {
				return res, err
			}
			// Skipped, and so is every one after it: it runs now.
		}
		a.settle(ctx)
	}
	if ah, ok := a.Conn.(transport.Ahead); ok && cmd.Final {
		if entries := a.pr.lookahead(ctx, a.h, a.Conn); len(entries) > 0 {
			next := make([]transport.Cmd, len(entries))
			for i, e := range entries {
				next[i] = e.cmd
				if e.stdin != nil {
					next[i].Stdin = bytes.NewReader(e.stdin)
				}
			}
			res, pend, err := ah.RunAhead(ctx, cmd, next)
			for i, e := range entries {
				e.pend = pend[i]
			}
			st.queue, st.gateShut = entries, err != nil || res.ExitCode != 0
			return res, err
		}
	}
	return a.Conn.Run(ctx, cmd)
}

// settle drops what was sent ahead and not used: what has not run never
// will, and the host's connection is in step again. A script that ran
// for a task that did not then send it is a fault of tender's, said in a
// warning.
func (a *aheadConn) settle(ctx context.Context) {
	st := &a.h.ahead
	// Behind a script that failed or was skipped nothing runs: those
	// need not be stopped (which costs the host an exec).
	gateShut := st.gateShut
	for _, e := range st.queue {
		if !gateShut {
			e.pend.Abandon()
		}
		res, ran, _ := e.pend.Wait(context.WithoutCancel(ctx))
		gateShut = !ran || res.ExitCode != 0
		if ran {
			a.pr.rn.emit(Event{Kind: Warning, Play: a.pr.name, Host: a.h.name, Task: e.task.DisplayName(),
				Msg: fmt.Sprintf("the script of task %q (%s) ran ahead of its turn, and the task did not send it at its turn", e.task.DisplayName(), e.task.Pos)})
		}
	}
	st.queue = nil
}

func (a *aheadConn) Stream(ctx context.Context, cmd transport.Cmd, stdout io.Writer) (transport.Result, error) {
	if err := a.before(ctx); err != nil {
		return transport.Result{}, err
	}
	return transport.Stream(ctx, a.Conn, cmd, stdout)
}

func (a *aheadConn) Put(ctx context.Context, dst string, src io.Reader, mode fs.FileMode) error {
	if err := a.before(ctx); err != nil {
		return err
	}
	return a.Conn.Put(ctx, dst, src, mode)
}

func (a *aheadConn) Get(ctx context.Context, src string, dst io.Writer) error {
	if err := a.before(ctx); err != nil {
		return err
	}
	return a.Conn.Get(ctx, src, dst)
}

func (a *aheadConn) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if err := a.before(ctx); err != nil {
		return nil, err
	}
	return a.Conn.Dial(ctx, network, addr)
}

// Close does nothing: the view does not own the connection.
func (a *aheadConn) Close() error { return nil }

// before is what a call other than Run does first: refused while a module
// runs for its script, else what was sent ahead is settled.
func (a *aheadConn) before(ctx context.Context) error {
	if c := a.h.ahead.capturing; c != nil {
		c.ok = false
		if c.done != nil {
			c.done()
		}
		return errCaptured
	}
	if len(a.h.ahead.queue) > 0 {
		a.settle(ctx)
	}
	return nil
}

// keep records the module's first script.
func (c *capture) keep(base transport.Conn, cmd transport.Cmd) {
	if c.done != nil {
		c.done()
	}
	if c.cmd != nil {
		c.ok = false
		return
	}
	c.base, c.ok = base, cmd.LiveStderr == nil
	if cmd.Stdin != nil {
		data, err := io.ReadAll(io.LimitReader(cmd.Stdin, maxAheadStdin+1))
		if err != nil || len(data) > maxAheadStdin {
			c.ok = false
		}
		c.stdin = data
		if c.stdin == nil {
			c.stdin = []byte{}
		}
	}
	cmd.Stdin = nil
	c.cmd = &cmd
}

// maxAheadStdin bounds the stdin of a script sent ahead.
const maxAheadStdin = 256 << 10

// sameCmd reports whether cmd is e's script, with the same environment,
// become and stdin. The stdin cmd had is returned when it was read.
func sameCmd(e *aheadEntry, cmd transport.Cmd) (bool, []byte, error) {
	a := e.cmd
	if a.Script != cmd.Script || !slices.Equal(a.Lib, cmd.Lib) || a.MaxOutput != cmd.MaxOutput || a.Final != cmd.Final ||
		cmd.LiveStderr != nil || !maps.Equal(a.Env, cmd.Env) || !sameBecome(a.Become, cmd.Become) {
		return false, nil, nil
	}
	if cmd.Stdin == nil {
		return e.stdin == nil, nil, nil
	}
	data, err := io.ReadAll(cmd.Stdin)
	if err != nil {
		return false, nil, err
	}
	return e.stdin != nil && bytes.Equal(data, e.stdin), data, nil
}

func sameBecome(a, b *transport.Become) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
