package expr

import (
	"errors"
	"fmt"
	"time"
)

// Limits bound what one evaluation may cost, beyond its 5,000,000 steps:
// the memory it builds and the time it takes. One evaluation is one call
// of Expr.Eval, Template.Render, Render, RenderDeep's rendering of one
// string, or RunLookup, together with everything it starts on the way:
// the templates it includes, imports or renders by lookup, and the
// variables whose templates it renders when it reads them. Past a limit
// the evaluation fails with an error naming the template that wraps
// ErrMemoryLimit or ErrTimeLimit. The zero value means the defaults.
type Limits struct {
	// MaxBytes bounds the memory an evaluation builds, in bytes: every
	// string, list and dict that its operations (concatenation,
	// repetition, filters, methods, global functions, lookups, literals,
	// template output) return new is counted when it is made, whether or
	// not it is still held later, a string by its length and a list or a
	// dict by its items (16 bytes a list item, 64 a dict entry); what an
	// operation only passes on (a variable's value, an item it picks out)
	// is not counted again. 0 means DefaultMaxBytes; a negative value
	// means no limit.
	MaxBytes int64
	// MaxTime bounds the wall time of an evaluation, less the time its
	// lookups spent (a pipe lookup's command, a file read). The clock is read
	// every 32 steps and, inside the filters that can run long on large
	// input (regular expressions, replace, join, sort, unique and the
	// set filters, sum, combine, password_hash), every few thousand
	// units of work, where the Env's Done is read too. 0 means
	// DefaultMaxTime; a negative value means no limit.
	MaxTime time.Duration
}

// The default Limits. 256 MiB is sixteen times the largest string one
// operation may build (16 MiB, also the bound of a template's output): a
// template that builds even the largest output fits, with room for its
// intermediate values, and real templates build a few megabytes at most.
// It counts what was built, not what is still held, so what an
// evaluation holds at once is less; a controller runs at most one
// evaluation a host at a time. 30 s is far more than real templates take
// (milliseconds) and short enough that a hostile one cannot hold a run.
const (
	DefaultMaxBytes = 256 << 20
	DefaultMaxTime  = 30 * time.Second
)

// ErrMemoryLimit and ErrTimeLimit are wrapped by the error of an
// evaluation that went past its Limits.
var (
	ErrMemoryLimit = errors.New("template memory limit exceeded")
	ErrTimeLimit   = errors.New("template time limit exceeded")
)

// limitError is the error of an evaluation past one of its limits: its
// text says which limit and its value; it wraps ErrMemoryLimit or
// ErrTimeLimit.
type limitError struct {
	msg  string
	kind error
}

func (e *limitError) Error() string { return e.msg }
func (e *limitError) Unwrap() error { return e.kind }

// checkEvery is how many units of work (a step counts stepUnits) pass
// between two readings of the clock and of the Env's Done.
const (
	checkEvery = 1 << 16
	stepUnits  = checkEvery / 32
)

// budget is what an evaluation has spent of its Limits. The evaluations
// one evaluation starts (the variables it renders as it reads them)
// share its budget; all run on one goroutine, so it needs no lock.
type budget struct {
	maxBytes int64
	maxTime  time.Duration
	start    time.Time
	done     <-chan struct{}
	built    int64 // bytes counted so far
	work     int   // units of work since the last check
	err      error // the limit already exceeded, if any
}

// newBudget starts the budget of an evaluation under env.
func newBudget(env *Env) *budget {
	b := &budget{maxBytes: DefaultMaxBytes, maxTime: DefaultMaxTime, start: time.Now()}
	if env != nil {
		b.done = env.Done
		if env.Limits.MaxBytes != 0 {
			b.maxBytes = env.Limits.MaxBytes
		}
		if env.Limits.MaxTime != 0 {
			b.maxTime = env.Limits.MaxTime
		}
	}
	return b
}

// budgetOf is the budget of the evaluation a filter or lookup runs in
// (see evaluator.env); nil, which counts nothing, outside of one.
func budgetOf(env *Env) *budget {
	if env == nil {
		return nil
	}
	return env.budget
}

// tick counts n units of work (a byte scanned, an item compared, a round
// of a hash) and, every checkEvery units, checks the clock and the Env's
// Done: long-running builtins call it in their loops so that they stop
// within the time limit, or soon after a cancellation. A nil budget
// counts nothing.
func (b *budget) tick(n int) error {
	if b == nil {
		return nil
	}
	if b.work += n; b.work < checkEvery {
		return b.err
	}
	b.work = 0
	return b.check()
}

// check reads the Env's Done and the clock. Its error stays: every later
// tick returns it, so that a loop that cannot stop where it ticks (inside
// a function without an error to return) can be checked after with
// tick(0).
func (b *budget) check() error {
	if b.err == nil && b.done != nil {
		select {
		case <-b.done:
			b.err = ErrInterrupted
		default:
		}
	}
	if b.err == nil && b.maxTime > 0 && time.Since(b.start) > b.maxTime {
		b.err = &limitError{kind: ErrTimeLimit,
			msg: fmt.Sprintf("template too expensive: it ran for more than %v (the time limit of one evaluation)", b.maxTime)}
	}
	return b.err
}

// exclude takes the time since t0 out of the time limit's count: the time
// a lookup spent waiting for the controller (a command, a file, the
// network) is what the playbook asked for, not a template's own work; the
// lookup's own evaluations and a Ctrl-C still bound it.
func (b *budget) exclude(t0 time.Time) {
	if b != nil {
		b.start = b.start.Add(time.Since(t0))
	}
}

// alloc counts n bytes built against the memory limit.
func (b *budget) alloc(n int64) error {
	if b == nil {
		return nil
	}
	b.built += n
	if b.err == nil && b.maxBytes > 0 && b.built > b.maxBytes {
		b.err = &limitError{kind: ErrMemoryLimit,
			msg: fmt.Sprintf("template too expensive: it built more than %s of strings, lists and dicts (the memory limit of one evaluation)", byteSize(b.maxBytes))}
	}
	return b.err
}

// byteSize writes n bytes in the largest binary unit that divides it.
func byteSize(n int64) string {
	for _, u := range []struct {
		shift int
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d %s", n>>u.shift, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}
