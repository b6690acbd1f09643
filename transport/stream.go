package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// Streamer is a Conn that can also run a script its caller talks to
// while it runs: the expect module reads a command's output as it comes
// and writes answers to its prompts. A Conn that wraps another (become,
// an environment view) implements it by handing the call on through
// Stream, so it fails as the wrapped Conn would.
type Streamer interface {
	// Stream runs cmd as Run does (the same quoting, environment and
	// become), with two differences: cmd.Stdin is passed to the script
	// as it is read, never read ahead or in full before the script
	// starts, so the caller may write to it in answer to what the script
	// printed; and the script's stdout is written to stdout as it
	// arrives, from one goroutine, instead of into Result.Stdout, which
	// stays empty (stdout is the caller's to bound; stderr is kept up to
	// cmd.OutputLimit, as by Run). Stream returns once the script has exited and its
	// output has been written, without waiting for cmd.Stdin to end: the
	// caller closes it afterwards. Each call opens a channel of its own
	// (on SSH, an exec channel: a few round trips).
	Stream(ctx context.Context, cmd Cmd, stdout io.Writer) (Result, error)
}

// StderrTo is where a Stream sends a script's stderr: into keep, and to
// live as well when it is not nil. A live writer that fails loses the
// rest of the stream; keep still gets it all.
func StderrTo(keep *Bounded, live io.Writer) io.Writer {
	if live == nil {
		return keep
	}
	return &teeWriter{keep: keep, live: live}
}

type teeWriter struct {
	keep *Bounded
	live io.Writer
}

func (t *teeWriter) Write(p []byte) (int, error) {
	n, err := t.keep.Write(p)
	if t.live != nil {
		if _, lerr := t.live.Write(p); lerr != nil {
			t.live = nil
		}
	}
	return n, err
}

// ErrNoStream is returned by Stream for a connection that cannot run a
// script interactively (one that runs it in the background, or a test
// fake).
var ErrNoStream = errors.New("the connection cannot pass input to a script while it runs")

// Stream runs cmd on c interactively when c is a Streamer (see
// Streamer.Stream), and returns an error wrapping ErrNoStream otherwise.
func Stream(ctx context.Context, c Conn, cmd Cmd, stdout io.Writer) (Result, error) {
	s, ok := c.(Streamer)
	if !ok {
		return Result{}, fmt.Errorf("%w (%T)", ErrNoStream, c)
	}
	return s.Stream(ctx, cmd, stdout)
}

// Stream runs cmd as the become user, as Run does.
func (bc *becomeConn) Stream(ctx context.Context, cmd Cmd, stdout io.Writer) (Result, error) {
	if bc.closed.Load() {
		return Result{}, errViewClosed
	}
	if cmd.Become == nil {
		cmd.Become = bc.b
	}
	return Stream(ctx, bc.c, cmd, stdout)
}
