package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// quitGrace is how long tender waits, after the interrupt that ends the
// run, for the run to close its connections before it exits regardless.
const quitGrace = 1500 * time.Millisecond

// interrupts handles SIGINT and SIGTERM the way tender promises: the
// first SIGINT closes drain (for a play: no task starts, the running ones
// finish) and prints first;
// a second SIGINT, or a SIGTERM, cancels ctx (running tasks stop and
// their connections close), and if the process is still alive quitGrace
// later it exits with 128 + the signal's number. stop releases the
// signals.
func interrupts(parent context.Context, errw io.Writer, first string) (ctx context.Context, drain <-chan struct{}, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	drained := make(chan struct{})
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	quit := make(chan struct{})
	go func() {
		var s os.Signal
		select {
		case s = <-sigs:
		case <-quit:
			return
		}
		close(drained)
		if s == os.Interrupt {
			fmt.Fprintln(errw, "\n[tender] interrupted: "+first+" Press Ctrl-C again to stop now.")
			select {
			case s = <-sigs:
			case <-quit:
				return
			}
		}
		fmt.Fprintf(errw, "\n[tender] %s: stopping the running tasks\n", s)
		cancel()
		select {
		case <-time.After(quitGrace):
			code := 130
			if s == syscall.SIGTERM {
				code = 143
			}
			os.Exit(code)
		case <-quit:
		}
	}()
	var once sync.Once
	return ctx, drained, func() {
		once.Do(func() {
			signal.Stop(sigs)
			close(quit)
			cancel()
		})
	}
}
