//go:build !windows

// The signals are sent to the test process itself with kill(2), which
// Windows does not have.

package main

import (
	"bytes"
	"context"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The first SIGINT drains (the context lives on), the second cancels.
func TestInterruptsTwoSteps(t *testing.T) {
	var errb bytes.Buffer
	ctx, drain, stop := interrupts(context.Background(), &errb, "no new task starts.")
	defer stop()
	wait := func(ch <-chan struct{}, what string) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s did not happen", what)
		}
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	wait(drain, "draining after the first SIGINT")
	if ctx.Err() != nil {
		t.Fatal("the first SIGINT cancelled the run")
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	wait(ctx.Done(), "cancelling after the second SIGINT")
	stop() // before quitGrace, so the test process is not ended
	if !strings.Contains(errb.String(), "Press Ctrl-C again") {
		t.Errorf("stderr = %q", errb.String())
	}
}

// SIGTERM cancels at once.
func TestTermCancels(t *testing.T) {
	var errb bytes.Buffer
	ctx, drain, stop := interrupts(context.Background(), &errb, "x")
	defer stop()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("SIGTERM did not cancel the run")
	}
	select {
	case <-drain:
	default:
		t.Fatal("SIGTERM did not drain")
	}
	stop()
}
