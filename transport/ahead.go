package transport

import (
	"context"
	"sync"
)

// Ahead is an optional interface of a Conn that can queue scripts behind
// a Run in the same write, so that a host works through several tasks in
// one round trip: the engine sends the scripts of the tasks that follow
// one whose outcome they cannot depend on (see Cmd.Final).
type Ahead interface {
	// RunAhead runs cmd as Run does and queues next behind it, in order.
	// Each script of next runs only if the one before it ran and exited
	// 0 and no call on the connection was abandoned meanwhile (its ctx
	// ended); otherwise it, and every one after it, is skipped: not run
	// at all. RunAhead returns cmd's result as Run would, and one
	// Pending per script of next, which tells what became of it. The
	// scripts of next must not read a Stdin that is not a *bytes.Reader
	// or nil. An implementation that cannot queue a script (one too big
	// to travel in band, say) skips it.
	RunAhead(ctx context.Context, cmd Cmd, next []Cmd) (Result, []*Pending, error)
}

// Pending is what became of a script RunAhead queued: its result once
// it has run, or that it was skipped.
type Pending struct {
	done chan struct{}
	once sync.Once
	res  Result
	ran  bool
	err  error
	stop func()
}

// NewPending returns a Pending for an implementation of Ahead to
// resolve; stop, when not nil, is called (once) by Abandon.
func NewPending(stop func()) *Pending {
	return &Pending{done: make(chan struct{}), stop: stop}
}

// Resolve records the outcome: ran says whether the script ran (res and
// err are then its Run's); a skipped script has ran false and no error.
// Only the first call counts.
func (p *Pending) Resolve(res Result, ran bool, err error) {
	p.once.Do(func() {
		p.res, p.ran, p.err = res, ran, err
		close(p.done)
	})
}

// Wait waits for the outcome: the script's result and ran true, or ran
// false when it was skipped. When ctx ends first, the Pending is
// abandoned (see Abandon) and ctx's error returned.
func (p *Pending) Wait(ctx context.Context) (Result, bool, error) {
	select {
	case <-p.done:
		return p.res, p.ran, p.err
	case <-ctx.Done():
		p.Abandon()
		return Result{}, false, ctx.Err()
	}
}

// Resolved reports whether the outcome is known.
func (p *Pending) Resolved() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Abandon says the caller will not use the outcome: the connection skips
// the script if it has not begun, and stops it if it is running, as a
// Run whose ctx ended.
func (p *Pending) Abandon() {
	if p.stop != nil && !p.Resolved() {
		p.stop()
	}
}
