package transporttest

import (
	"context"
	"io/fs"
	"slices"
	"time"

	"github.com/tender-sh/tender/transport"
)

// Op names the kind of a recorded call.
type Op string

// The calls a fake host records. Run, Put, Get and Dial are round trips;
// Connect and Close are not counted as such.
const (
	OpConnect Op = "connect"
	OpRun     Op = "run"
	OpPut     Op = "put"
	OpGet     Op = "get"
	OpDial    Op = "dial"
	OpClose   Op = "close"
)

func (op Op) roundTrip() bool { return op == OpRun || op == OpPut || op == OpGet || op == OpDial }

// Call is one recorded call to a fake host.
type Call struct {
	// Seq numbers the host's calls from 1; Trip numbers its round trips
	// from 1 (0 for Connect and Close).
	Seq, Trip int
	Op        Op
	// Target is what Connect was given, without the password.
	Target transport.Target
	// Script, Env, Become and Stdin are what Run was given (Stdin read in
	// full; nil when the caller gave none).
	Script string
	Env    map[string]string
	Become *transport.Become
	Stdin  []byte
	// Path and Mode are Put's destination and mode, or Get's source; Data
	// is what Put was sent (nil when reading the source failed).
	Path string
	Mode fs.FileMode
	Data []byte
	// Network and Addr are what Dial was given.
	Network, Addr string
	// Start is when the call began; Err is what it returned.
	Start time.Time
	Err   error
	// Queued: a Run that RunAhead sent behind the call before it, in
	// the same round trip (its Trip is that call's).
	Queued bool
}

// Calls returns a copy of every call made to the host so far, in order.
func (h *Host) Calls() []Call {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.calls)
}

// Count returns how many calls of the given kinds were made to the host,
// failed ones included.
func (h *Host) Count(ops ...Op) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, c := range h.calls {
		if slices.Contains(ops, c.Op) {
			n++
		}
	}
	return n
}

// RoundTrips returns how many round trips (Run, Put, Get, Dial) were made
// to the host, failed ones included.
func (h *Host) RoundTrips() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.trips
}

// Scripts returns the scripts of every Run made to the host, in order.
func (h *Host) Scripts() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, c := range h.calls {
		if c.Op == OpRun {
			out = append(out, c.Script)
		}
	}
	return out
}

// begin records c and applies the host's faults to it: it waits out the
// latency, then returns the error a down host, DownAfter or Fail gives.
// The returned index is for end.
func (h *Host) begin(ctx context.Context, c Call) (int, error) {
	h.mu.Lock()
	c.Seq = len(h.calls) + 1
	c.Start = time.Now()
	if c.Queued {
		c.Trip = h.trips
	} else if c.Op.roundTrip() {
		h.trips++
		c.Trip = h.trips
	}
	if n := h.faults.DownAfter; n > 0 && c.Trip > n {
		h.down = true
	}
	down, f := h.down, h.faults
	h.calls = append(h.calls, c)
	i := len(h.calls) - 1
	h.mu.Unlock()

	if f.Latency > 0 && !c.Queued {
		t := time.NewTimer(f.Latency)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return i, ctx.Err()
		}
	}
	if err := ctx.Err(); err != nil {
		return i, err
	}
	if down {
		return i, transport.Unreachable(h.name, ErrDown)
	}
	if f.Fail != nil {
		if err := f.Fail(c); err != nil {
			if err == ErrDown {
				err = transport.Unreachable(h.name, err)
			}
			return i, err
		}
	}
	return i, nil
}

// end records what call i returned.
func (h *Host) end(i int, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls[i].Err = err
}

// record stores data read for call i (the stdin of a Run, a Put's source).
func (h *Host) record(i int, fn func(c *Call)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	fn(&h.calls[i])
}
