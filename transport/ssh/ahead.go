package ssh

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tender-sh/tender/transport"
)

// Scripts queued behind a Run (transport.Ahead).
//
// RunAhead writes the frame of its first script and then one gated frame
// for each queued script, all in one write:
//
//	if [ "$__tender_x" = 0 ] && ! [ -d "$__tender_d/sTOKEN" ]; then
//	<the script's frame>
//	else __tender_skip B; fi
//
// __tender_x is the exit status __tender_post recorded for the frame
// before (S after a skipped frame, F after one whose output was lost), so
// a queued script runs only when every script before it ran and exited
// 0. TOKEN is the first frame's boundary: a call abandoned meanwhile (its
// ctx ended, or the connection is closing) makes that directory from an
// exec channel, and the frames still waiting are skipped, each answering
// B O B S. The answers are read in order by one goroutine that holds the
// shell until the last one is in.

// RunAhead implements transport.Ahead.
func (c *Conn) RunAhead(ctx context.Context, cmd transport.Cmd, next []transport.Cmd) (transport.Result, []*transport.Pending, error) {
	b := &aheadBatch{c: c}
	pend := make([]*transport.Pending, len(next))
	for i := range pend {
		pend[i] = transport.NewPending(b.stop)
	}
	skip := func(from int) {
		for _, p := range pend[from:] {
			p.Resolve(transport.Result{}, false, nil)
		}
	}
	w, in, ok, err := c.inBand(ctx, cmd)
	// alone runs cmd as Run does when it cannot lead a batch: with the
	// stdin inBand already read put back before the rest.
	alone := func() (transport.Result, []*transport.Pending, error) {
		skip(0)
		if cmd.Stdin != nil {
			cmd.Stdin = io.MultiReader(bytes.NewReader(in), cmd.Stdin)
		}
		res, err := c.Run(ctx, cmd)
		return res, pend, err
	}
	if err != nil {
		skip(0)
		return transport.Result{}, pend, err
	}
	if !ok {
		return alone()
	}
	queued := make([]aheadFrame, 0, len(next))
	for _, n := range next {
		if n.Stdin != nil {
			if _, isBytes := n.Stdin.(*bytes.Reader); !isBytes {
				break
			}
		}
		nw, nin, ok, err := c.inBand(ctx, n)
		if err != nil || !ok {
			break
		}
		queued = append(queued, aheadFrame{w: nw, in: nin, fo: frameOptsOf(n, nw), limit: n.OutputLimit()})
	}
	skip(len(queued))
	sh, err := c.pick(ctx)
	if err != nil {
		skip(0)
		return transport.Result{}, pend, err
	}
	if sh == nil { // no shell free: the first runs alone on an exec channel
		c.release()
		return alone()
	}
	b.sh = sh
	first := boundary()
	b.token = "s" + first[len("__TENDER_"):len(first)-1]
	// Two or more scripts in a row that name the path they read first
	// share one stat (see prestat.go); their answers go through the
	// shell's read, which checks them.
	pre := prestatPlan(cmd, w, next, queued)
	var all bytes.Buffer
	fo := frameOptsOf(cmd, w)
	if pre != nil && pre[0].shared() {
		fo.direct = false
	}
	f := shellFrame(sh, first, commandOf(w), w.Inline != "", frameIn(w, in), fo)
	if pre != nil && pre[0].shared() {
		f = prestatFrame(f, pre[0], cmd.Unchanged)
	}
	all.Write(sh.lengthPrefixed(append(sh.libDefs(fo.lib), f...)))
	bounds := make([]string, len(queued))
	for i, q := range queued {
		bounds[i] = boundary()
		shared := pre != nil && pre[i+1].shared()
		if shared {
			q.fo.direct = false
		}
		f := gatedFrame(b.token, bounds[i], shellFrame(sh, bounds[i], commandOf(q.w), q.w.Inline != "", frameIn(q.w, q.in), q.fo))
		if shared {
			f = prestatFrame(f, pre[i+1], next[i].Unchanged)
		}
		// The Lib goes before the gate: a skipped frame still defines it.
		all.Write(sh.lengthPrefixed(append(sh.libDefs(q.fo.lib), f...)))
	}
	c.stats.shellRuns.Add(1)
	c.stats.writes.Add(1)
	c.track(b, true)
	done := make(chan shellAnswer, 1)
	go b.read(all.Bytes(), first, cmd.OutputLimit(), queued, bounds, pend, done)
	select {
	case a := <-done:
		var oe *outputError
		switch {
		case errors.As(a.err, &oe), errors.Is(a.err, transport.ErrOutputTooLarge):
			return transport.Result{}, pend, fmt.Errorf("%s: %w", c.name, a.err)
		case a.err != nil:
			return transport.Result{}, pend, c.broken("run", a.err)
		}
		return a.res, pend, nil
	case <-ctx.Done():
		b.stop()
		return transport.Result{}, pend, ctx.Err()
	}
}

// aheadFrame is a queued script, ready for its frame.
type aheadFrame struct {
	w     transport.Wrapped
	in    []byte
	fo    frameOpts
	limit int
}

// aheadBatch is one RunAhead's frames in flight on the shell.
type aheadBatch struct {
	c       *Conn
	sh      *shell
	token   string
	stopped atomic.Bool

	mu       sync.Mutex
	released bool          // the reader gave the shell back: nothing of the batch runs
	halted   chan struct{} // closed when stop's halt is done (nil: no stop)
}

// read writes the frames and reads their answers in order, then gives
// the shell back (or discards it when it fell out of step).
func (b *aheadBatch) read(frames []byte, first string, limit int, queued []aheadFrame, bounds []string, pend []*transport.Pending, done chan<- shellAnswer) {
	sh, c := b.sh, b.c
	defer c.track(b, false)
	_, err := sh.stdin.Write(frames)
	var res transport.Result
	if err == nil {
		res, _, err = sh.answer(first, limit)
	}
	done <- shellAnswer{res, err}
	last := time.Now() // when the frame before the next one ended, about
	broken := err != nil && !isInStep(err)
	// An answer too large was read up to its stdout's end only: the next
	// answer's reading skips its rest, but after the last one the shell
	// is out of step.
	tooLarge := errors.Is(err, transport.ErrOutputTooLarge)
	for i, q := range queued {
		if broken {
			pend[i].Resolve(transport.Result{}, true, c.broken("run", err))
			continue
		}
		r, skipped, aerr := sh.answer(bounds[i], q.limit)
		tooLarge = errors.Is(aerr, transport.ErrOutputTooLarge)
		switch {
		case aerr != nil && !isInStep(aerr):
			broken, err = true, aerr
			pend[i].Resolve(transport.Result{}, true, c.broken("run", aerr))
		case aerr != nil:
			pend[i].Resolve(transport.Result{}, true, fmt.Errorf("%s: %w", c.name, aerr))
		case skipped:
			pend[i].Resolve(transport.Result{}, false, nil)
		default:
			c.stats.shellRuns.Add(1)
			r.Start, r.End = last, time.Now()
			pend[i].Resolve(r, true, nil)
		}
		last = time.Now()
	}
	// A halt still on its way must not reach the next Run's frame.
	b.mu.Lock()
	b.released = true
	halted := b.halted
	b.mu.Unlock()
	if halted != nil {
		<-halted
	}
	if broken || tooLarge {
		c.discard(sh)
		return
	}
	c.idle <- sh
}

// isInStep reports whether a frame's error leaves the shell in step: its
// output was lost on the host, or was too large (the reader then skips
// to the next frame's boundary).
func isInStep(err error) bool {
	var oe *outputError
	return errors.As(err, &oe) || errors.Is(err, transport.ErrOutputTooLarge)
}

// stop makes the frames still waiting skip, and stops the one running:
// from an exec channel, the gates' directory is made and the shell's
// children terminated. When the shell does not answer within
// recoverTimeout it is discarded.
func (b *aheadBatch) stop() {
	if b.sh == nil || b.stopped.Swap(true) {
		return
	}
	b.mu.Lock()
	if b.released {
		b.mu.Unlock()
		return
	}
	halted := make(chan struct{})
	b.halted = halted
	b.mu.Unlock()
	go func() {
		b.halt()
		close(halted)
		t := time.NewTimer(recoverTimeout)
		defer t.Stop()
		select {
		case <-t.C:
			if b.c.inFlight(b) {
				b.sh.sess.Close() // the reader fails and discards it
			}
		case <-b.c.dead:
		}
	}()
}

// track records b as in flight (or no longer), for Close.
func (c *Conn) track(b *aheadBatch, on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.batches == nil {
		c.batches = map[*aheadBatch]bool{}
	}
	if on {
		c.batches[b] = true
	} else {
		delete(c.batches, b)
	}
}

func (c *Conn) inFlight(b *aheadBatch) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.batches[b]
}

// stopBatches stops every batch in flight before the connection closes,
// so that no queued script runs once its caller is gone: the host's
// shell would otherwise still read the frames already sent.
func (c *Conn) stopBatches() {
	c.mu.Lock()
	var bs []*aheadBatch
	for b := range c.batches {
		bs = append(bs, b)
	}
	c.mu.Unlock()
	for _, b := range bs {
		if !b.stopped.Swap(true) {
			b.halt()
		}
	}
}

// halt closes the batch's gates and terminates what runs, from an exec
// channel.
func (b *aheadBatch) halt() {
	b.c.execQuiet("mkdir " + transport.Quote(b.sh.dir+"/"+b.token) + " 2>/dev/null\n" + killScript(b.sh.pid, "TERM", false))
}

// gatedFrame wraps a queued frame in its gate (see RunAhead).
func gatedFrame(token, b string, frame []byte) []byte {
	out := make([]byte, 0, len(frame)+128)
	out = append(out, "if [ \"$__tender_x\" = 0 ] && ! [ -d \"$__tender_d/"+token+"\" ]; then\n"...)
	out = append(out, frame...)
	return append(out, "else __tender_skip "+b+"\nfi\n"...)
}

// inBand prepares cmd for the persistent shell: its wrapped form and its
// stdin, and whether both fit in one frame (Run takes an exec channel
// for what does not).
func (c *Conn) inBand(ctx context.Context, cmd transport.Cmd) (transport.Wrapped, []byte, bool, error) {
	w, err := c.wrap(ctx, cmd)
	if err != nil {
		return w, nil, false, err
	}
	var in []byte
	if cmd.Stdin != nil && w.Prefix <= inBandLimit {
		if in, err = io.ReadAll(io.LimitReader(cmd.Stdin, int64(inBandLimit+1-w.Prefix))); err != nil {
			return w, nil, false, fmt.Errorf("%s: read stdin: %w", c.name, err)
		}
	}
	return w, in, w.Prefix+len(in) <= inBandLimit, nil
}

func isSecret(cmd transport.Cmd) bool { return cmd.Become != nil && cmd.Become.Password != "" }

// commandOf is what the frame runs for w: its inline form when it has one.
func commandOf(w transport.Wrapped) string {
	if w.Inline != "" {
		return w.Inline
	}
	return w.Command
}

// frameIn is the stdin the frame carries for w: the caller's alone for
// an inline script, else Wrap's head before it.
func frameIn(w transport.Wrapped, in []byte) []byte {
	if w.Inline != "" {
		return in
	}
	return w.HeadBytes(in)
}
