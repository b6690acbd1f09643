package ssh

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	xssh "golang.org/x/crypto/ssh"

	"github.com/tender-sh/tender/transport"
)

// execWrapper runs a command line under a sh that first prints its pid on
// a line of its own, so a cancelled Run can find and kill the script's
// whole process tree (an SSH signal request reaches only one process).
const execWrapper = `/bin/sh -c 'echo $$; eval "$1"' tender-exec `

// runExec runs command on a new exec channel with stdin as its standard
// input (followed by end-of-file). The caller holds a session slot.
func (c *Conn) runExec(ctx context.Context, command string, stdin io.Reader, limit int) (transport.Result, error) {
	return c.runExecTo(ctx, execWrapper+transport.Quote(command), stdin, limit, nil, nil)
}

// errNotStarted marks a Run whose command the host did not start (an
// exec request refused); its text is the cause's alone.
var errNotStarted = errors.New("")

// onceLimit bounds the scripts runOnce takes: the sh reads its script
// from the channel, which bash does a byte at a time.
const onceLimit = 16 << 10

// runOnce runs a script the caller will run nothing after on this
// connection (transport.Cmd.Alone), given in its inline form (so without
// stdin or become), on an exec channel of its own: a sh reads it from the
// channel's stdin and its output and exit status are the channel's. It
// saves the persistent shell's setup (its private directory: mktemp, and
// rm when it exits), the frame's subshell and output files, which on a
// host cost more than a short script. The caller holds a session slot.
func (c *Conn) runOnce(ctx context.Context, w transport.Wrapped, limit int) (transport.Result, error) {
	// "( eval 'SCRIPT' )" without its subshell: the sh is the script's own,
	// and so are the definitions of its Lib, which come first.
	body := w.Inline
	if strings.HasPrefix(body, "( ") && strings.HasSuffix(body, " )") {
		body = body[2 : len(body)-2]
	}
	stdin := strings.NewReader("echo $$\n" + strings.Join(w.Lib, "") + body + " </dev/null\n")
	return c.runExecTo(ctx, or(c.opts.shellCommand, shellCommand), stdin, limit, nil, nil)
}

// runAlone runs w as runOnce does, or, where the host refuses to start a
// bare sh on an exec channel (as it may refuse the persistent shell), as
// an exec Run of w's command, the shell then known refused. The caller
// holds a session slot.
func (c *Conn) runAlone(ctx context.Context, w transport.Wrapped, limit int) (transport.Result, error) {
	res, err := c.runOnce(ctx, w, limit)
	if !errors.Is(err, errNotStarted) || ctx.Err() != nil || isDead(c.dead) {
		return res, err
	}
	c.mu.Lock()
	if c.state == shellNone {
		c.state = shellRefused
	}
	c.mu.Unlock()
	return c.runExec(ctx, w.Command, w.Head(), limit)
}

// alone reports whether cmd, wrapped as w, may run by runOnce: the caller
// promised it is the connection's only Run, it has an inline form and no
// stdin, it is short, and no persistent shell is there to serve it.
func (c *Conn) alone(cmd transport.Cmd, w transport.Wrapped) bool {
	if !cmd.Alone || cmd.Stdin != nil || w.Inline == "" || len(w.Inline)+libSize(w.Lib) > onceLimit {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state == shellNone
}

// libSize is how many bytes lib's pieces hold.
func libSize(lib []string) int {
	n := 0
	for _, p := range lib {
		n += len(p)
	}
	return n
}

// Stream runs cmd on an exec channel of its own, its stdin passed on as
// it is read and its stdout written to stdout as it arrives; see
// transport.Streamer.
func (c *Conn) Stream(ctx context.Context, cmd transport.Cmd, stdout io.Writer) (transport.Result, error) {
	w, err := c.wrap(ctx, cmd)
	if err != nil {
		return transport.Result{}, err
	}
	if err := c.acquire(ctx); err != nil {
		return transport.Result{}, err
	}
	defer c.release()
	return c.runExecTo(ctx, execWrapper+transport.Quote(w.Command), w.Stdin, cmd.OutputLimit(), stdout, cmd.LiveStderr)
}

// pidWait bounds how long a cancelled exec Run waits for its sh's pid
// line before it falls back to signalling the session.
const pidWait = 5 * time.Second

// runExecTo runs start, a command line whose first line of output is
// its sh's pid (as execWrapper prints it), as runExec does, writing the
// command's stdout to stdout as it arrives when stdout is not nil (Result.Stdout then stays empty), and
// its stderr to stderr as well when that is not nil. The
// channel's stdin copy does not hold Wait up: a stdin that has not ended
// when the command exits is left to its caller.
func (c *Conn) runExecTo(ctx context.Context, start string, stdin io.Reader, limit int, stdout, stderr io.Writer) (transport.Result, error) {
	sess, err := c.newSession(ctx)
	if err != nil {
		return transport.Result{}, err
	}
	closeSess := true
	defer func() {
		if closeSess {
			sess.Close()
		}
	}()
	c.stats.execRuns.Add(1)
	out, errb := pidWriter{buf: transport.Bounded{Limit: limit}, to: stdout}, transport.Bounded{Limit: limit}
	if stdin != nil {
		sess.Stdin = chunkedReader{stdin}
	}
	sess.Stdout = smallReads{&out}
	sess.Stderr = smallReads{transport.StderrTo(&errb, stderr)}
	if err := sess.Start(start); err != nil {
		return transport.Result{}, fmt.Errorf("%w%w", c.broken("exec", err), errNotStarted)
	}
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		// The kill script finds the sh's descendants and kills them with
		// it; a signal to the sh sent first would orphan them before they
		// are found. The channel stays open until then. A pid line still
		// on its way (a loaded host, or a cancel right after the start)
		// is waited for, up to pidWait, unless the command ends first;
		// without one the session is signalled, which not every server
		// honours.
		closeSess = false
		go func() {
			defer sess.Close()
			pid := out.pid()
			for wait := time.NewTimer(pidWait); pid == ""; pid = out.pid() {
				select {
				case <-done:
					wait.Stop()
					return
				case <-wait.C:
					_ = sess.Signal(xssh.SIGKILL)
					return
				case <-time.After(10 * time.Millisecond):
				}
			}
			c.killChildren(pid, "KILL", true)
		}()
		return transport.Result{}, ctx.Err()
	}
	if out.pid() == "" {
		return transport.Result{}, c.broken("exec", errors.New("the command did not start"))
	}
	if out.buf.Over || errb.Over {
		return transport.Result{}, fmt.Errorf("%s: %w", c.name, transport.ErrOutputTooLarge)
	}
	res := transport.Result{Stdout: out.buf.Bytes(), Stderr: errb.Bytes()}
	var ee *xssh.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitStatus()
		if sig := ee.Signal(); sig != "" {
			res.ExitCode = 128 + signalNumber(sig)
		}
	default:
		return res, c.broken("exec", err)
	}
	return res, nil
}

// newSession opens a session channel, retrying briefly when the server
// refuses it for lack of resources: a session the client just closed may
// still count against the server's MaxSessions for a moment.
func (c *Conn) newSession(ctx context.Context) (*xssh.Session, error) {
	wait := 10 * time.Millisecond
	for attempt := 0; ; attempt++ {
		sess, err := c.client.NewSession()
		if err == nil {
			c.stats.channels.Add(1)
			return sess, nil
		}
		var oce *xssh.OpenChannelError
		if !errors.As(err, &oce) || attempt >= 6 ||
			(oce.Reason != xssh.Prohibited && oce.Reason != xssh.ResourceShortage) {
			return nil, c.broken("open session", err)
		}
		select {
		case <-time.After(wait):
			wait *= 2
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// signalNumber maps an SSH signal name to its Linux number.
func signalNumber(name string) int {
	n := map[string]int{"HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "ABRT": 6, "FPE": 8,
		"KILL": 9, "USR1": 10, "SEGV": 11, "USR2": 12, "PIPE": 13, "ALRM": 14, "TERM": 15}[name]
	if n == 0 {
		n = 9
	}
	return n
}

// killChildren signals the descendants of the remote process pid through
// a separate exec channel, best effort.
func (c *Conn) killChildren(pid, sig string, self bool) {
	c.execQuiet(killScript(pid, sig, self))
}

// execQuiet runs script on its own exec channel, best effort, for at
// most 5 seconds.
func (c *Conn) execQuiet(script string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.acquire(ctx); err != nil {
		return
	}
	defer c.release()
	sess, err := c.client.NewSession()
	if err != nil {
		return
	}
	c.stats.channels.Add(1)
	defer sess.Close()
	done := make(chan error, 1)
	go func() { done <- sess.Run(script) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// pidWriter keeps the first line written to it (the pid execWrapper
// prints) apart from the rest (the script's stdout), which goes to to, or
// to buf when to is nil.
type pidWriter struct {
	mu   sync.Mutex
	line []byte
	done bool
	buf  transport.Bounded
	to   io.Writer
}

func (w *pidWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	if !w.done {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.line = append(w.line, p...)
			return n, nil
		}
		w.line, w.done, p = append(w.line, p[:i]...), true, p[i+1:]
	}
	if w.to != nil {
		// A writer that fails loses the rest; the channel is still
		// drained, so the command is not blocked writing.
		if len(p) > 0 {
			if _, err := w.to.Write(p); err != nil {
				w.to = io.Discard
			}
		}
		return n, nil
	}
	w.buf.Write(p)
	return n, nil
}

// pid returns the pid line once it is complete.
func (w *pidWriter) pid() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.done {
		return ""
	}
	return string(w.line)
}
