package transporttest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/tender-sh/tender/provision/transport"
)

// Shell is the fake hosts' default Handler: it runs the script with
// /bin/sh on this machine, as the user running the tests, with Root as
// working directory and HOME and Root/tmp as TMPDIR, then Syncs, so that
// files Put under Root are what the script sees and what the script
// leaves under Root is what Get returns. Become is recorded but not
// applied: the script runs as the same user. Scripts reach real paths
// elsewhere; keep what a test touches under Root.
func Shell(ctx context.Context, h *Host, cmd transport.Cmd) (transport.Result, error) {
	cmd.Become = nil
	w, err := transport.Wrap(cmd)
	if err != nil {
		return transport.Result{}, err
	}
	p := exec.CommandContext(ctx, "/bin/sh", "-c", w.Command)
	p.Dir = h.root
	p.Env = append(os.Environ(), "HOME="+h.root, "TMPDIR="+filepath.Join(h.root, "tmp"))
	p.Stdin = w.Stdin
	out, errb := transport.Bounded{Limit: cmd.OutputLimit()}, transport.Bounded{Limit: cmd.OutputLimit()}
	p.Stdout, p.Stderr = &out, &errb
	// The script gets its own process group, killed whole when ctx ends,
	// so that its children do not outlive it or hold its output open.
	p.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p.Cancel = func() error { return syscall.Kill(-p.Process.Pid, syscall.SIGKILL) }
	p.WaitDelay = 5 * time.Second
	err = p.Run()
	h.Sync()
	if ctx.Err() != nil {
		return transport.Result{}, ctx.Err()
	}
	if out.Over || errb.Over {
		return transport.Result{}, fmt.Errorf("%s: %w", h.name, transport.ErrOutputTooLarge)
	}
	res := transport.Result{Stdout: out.Bytes(), Stderr: errb.Bytes()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.ExitCode = 128 + int(ws.Signal())
		}
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		return res, fmt.Errorf("%s: %w", h.name, err)
	}
	return res, nil
}
