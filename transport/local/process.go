package local

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"syscall"
	"time"

	"github.com/tender-sh/tender/internal/osproc"
	"github.com/tender-sh/tender/transport"
)

// Process runs scripts as child processes of this machine, wrapped as
// every transport wraps them (transport.Wrap): the local connection's
// /bin/sh, the docker connection's docker exec and the test fake's shell
// are each a Process. Its zero value is not usable: Argv is required.
type Process struct {
	// Name names the host in errors.
	Name string
	// Argv is the program and its first arguments; the wrapped command
	// line (transport.Wrapped.Command) is appended as the last argument,
	// so Argv ends with a shell's -c or something that runs one.
	Argv []string
	// Dir and Env, when set, are the process's working directory and
	// environment, as exec.Cmd's.
	Dir string
	Env []string
}

// waitDelay is how long Run waits, after the script's process group was
// killed, for output pipes that an escaped child still holds.
const waitDelay = 5 * time.Second

// Run runs cmd and waits for it. The process gets its own process group,
// killed whole when ctx ends, so that a script's children do not outlive
// it; Run then returns ctx's error. With stdout not nil it runs as
// transport.Streamer's Stream: stdin passed on as it is read, stdout
// written as it arrives.
func (p Process) Run(ctx context.Context, cmd transport.Cmd, stdout io.Writer) (transport.Result, error) {
	w, err := transport.Wrap(cmd)
	if err != nil {
		return transport.Result{}, err
	}
	pc := exec.CommandContext(ctx, p.Argv[0], append(p.Argv[1:len(p.Argv):len(p.Argv)], w.Command)...)
	pc.Dir, pc.Env = p.Dir, p.Env
	out, errb := transport.Bounded{Limit: cmd.OutputLimit()}, transport.Bounded{Limit: cmd.OutputLimit()}
	pc.Stdout, pc.Stderr = &out, &errb
	var in io.WriteCloser
	if stdout != nil {
		// Wait must not wait for a stdin that has not ended: the copy
		// is ours, and ends when the caller closes the reader.
		pc.Stdout = stdout
		pc.Stderr = transport.StderrTo(&errb, cmd.LiveStderr)
		if in, err = pc.StdinPipe(); err != nil {
			return transport.Result{}, fmt.Errorf("%s: %w", p.Name, err)
		}
	} else {
		pc.Stdin = w.Stdin
	}
	osproc.Group(pc, true)
	pc.WaitDelay = waitDelay
	if err := pc.Start(); err != nil {
		return transport.Result{}, fmt.Errorf("%s: start %s: %w", p.Name, p.Argv[0], err)
	}
	if in != nil {
		go func() {
			_, _ = io.Copy(in, w.Stdin)
			in.Close()
		}()
	}
	err = pc.Wait()
	if ctx.Err() != nil {
		return transport.Result{}, ctx.Err()
	}
	res := transport.Result{Stdout: out.Bytes(), Stderr: errb.Bytes()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.ExitCode = 128 + int(ws.Signal()) // as sh reports a killed command
		}
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		return res, fmt.Errorf("%s: %w", p.Name, err)
	}
	if out.Over || errb.Over {
		return transport.Result{}, fmt.Errorf("%s: %w", p.Name, transport.ErrOutputTooLarge)
	}
	return res, nil
}
