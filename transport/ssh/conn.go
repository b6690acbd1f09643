package ssh

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pkg/sftp"
	xssh "golang.org/x/crypto/ssh"

	"github.com/tender-sh/tender/transport"
)

// Conn is one SSH connection to one host, kept for a whole run. Scripts go
// down a persistent sh session, one round trip each; calls that arrive
// while it is busy, and every call on a host that refuses such a session,
// use one exec channel each. Files move by SFTP on the same connection, and
// Dial opens direct-tcpip channels. A Conn is safe for concurrent use; it
// never has more than the Dialer's MaxSessions session channels open.
type Conn struct {
	name    string
	client  *xssh.Client
	closers []io.Closer // jump hosts' connections, closed after client
	opts    connOptions

	slots  chan struct{}         // one token per open session channel
	dead   chan struct{}         // closed when the SSH connection ends
	err    error                 // why it ended, set before dead is closed
	silent atomic.Pointer[error] // set when keepalives went unanswered

	mu      sync.Mutex
	state   shellState
	batches map[*aheadBatch]bool // RunAhead's frames in flight
	idle    chan *shell          // the persistent shell, when it is free

	sftpMu sync.Mutex
	sftp   *sftp.Client
	noSFTP error           // set once the host refused the sftp subsystem
	swept  map[string]bool // directories Put swept of abandoned uploads
	sweeps sync.WaitGroup  // sweeps running; Close waits for them

	closed atomic.Bool
	stats  struct{ shellRuns, execRuns, channels, writes atomic.Int64 }
}

// Stats counts what a Conn did, for measuring the cost of a run.
type Stats struct {
	ShellRuns int64 // Runs answered by the persistent shell: one round trip each
	ExecRuns  int64 // Runs on their own exec channel: about three round trips each
	Channels  int64 // channels opened (sessions, SFTP, direct-tcpip), each at least one round trip
	// ShellWrites counts the writes down the persistent shell that were
	// waited on: one round trip each, however many scripts (RunAhead) a
	// write carried.
	ShellWrites int64
}

// Stats returns the counts so far.
func (c *Conn) Stats() Stats {
	return Stats{ShellRuns: c.stats.shellRuns.Load(), ExecRuns: c.stats.execRuns.Load(), Channels: c.stats.channels.Load(), ShellWrites: c.stats.writes.Load()}
}

type connOptions struct {
	maxSessions       int
	noShell           bool
	keepaliveInterval time.Duration
	keepaliveCountMax int
	shellCommand      string // tests only: what starts the persistent shell
}

type shellState int

const (
	shellNone     shellState = iota // not started (or discarded): the next Run starts one
	shellStarting                   // a Run is starting it
	shellReady                      // started; in idle when free
	shellRefused                    // the host refused it: use exec channels
)

var _ transport.Conn = (*Conn)(nil)

var errClosed = errors.New("ssh connection is closed")

func newConn(name string, client *xssh.Client, closers []io.Closer, o connOptions) *Conn {
	if o.maxSessions <= 0 {
		o.maxSessions = DefaultMaxSessions
	}
	c := &Conn{
		name: name, client: client, closers: closers, opts: o,
		slots: make(chan struct{}, o.maxSessions),
		dead:  make(chan struct{}),
		idle:  make(chan *shell, 1),
	}
	if o.noShell {
		c.state = shellRefused
	}
	go func() {
		err := client.Wait()
		if err == nil {
			err = io.EOF
		}
		if why := c.silent.Load(); why != nil {
			err = *why
		}
		c.err = err
		close(c.dead)
	}()
	if o.keepaliveInterval > 0 {
		c.keepalive(o.keepaliveInterval, max(o.keepaliveCountMax, 1))
	}
	return c
}

// keepalive sends keepalive@openssh.com requests every interval and closes
// the connection after countMax of them in a row went unanswered, so a host
// that vanished without a FIN is noticed within interval*(countMax+1).
// Between requests it holds no goroutine (a timer starts the next one):
// a goroutine per host in flight is stack memory for the connection's
// life.
func (c *Conn) keepalive(interval time.Duration, countMax int) {
	misses := 0
	var ping func()
	ping = func() {
		for {
			select {
			case <-c.dead:
				return
			default:
			}
			sent := time.Now()
			reply := make(chan error, 1)
			go func() {
				_, _, err := c.client.SendRequest("keepalive@openssh.com", true, nil)
				reply <- err
			}()
			wait := time.NewTimer(interval)
			select {
			case <-c.dead:
				wait.Stop()
				return
			case err := <-reply:
				wait.Stop()
				if err != nil {
					c.client.Close()
					return
				}
				misses = 0
				// The next request an interval after this one was sent.
				time.AfterFunc(max(interval-time.Since(sent), 0), ping)
				return
			case <-wait.C:
				if misses++; misses >= countMax {
					why := fmt.Errorf("the host did not answer %d keepalives in %v", countMax, interval*time.Duration(countMax+1))
					c.silent.Store(&why)
					c.client.Close()
					return
				}
				// An interval has passed: the next request at once.
			}
		}
	}
	time.AfterFunc(interval, ping)
}

// broken turns err into an unreachable error when the connection has ended,
// and adds the host's name otherwise.
func (c *Conn) broken(what string, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) || errors.Is(err, sftp.ErrSSHFxConnectionLost) {
		// A channel that ended may be the first sign of the connection
		// ending: give the connection a moment to report it.
		select {
		case <-c.dead:
		case <-time.After(200 * time.Millisecond):
		}
	}
	select {
	case <-c.dead:
		if c.closed.Load() {
			return fmt.Errorf("%s: %s: %w", c.name, what, errClosed)
		}
		return transport.Unreachable(c.name, fmt.Errorf("%s: connection lost: %w", what, c.err))
	default:
		return fmt.Errorf("%s: %s: %w", c.name, what, err)
	}
}

// acquire takes a session slot, waiting while all are in use.
func (c *Conn) acquire(ctx context.Context) error {
	select {
	case c.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-c.dead:
		return c.broken("open session", c.err)
	}
}

func (c *Conn) release() { <-c.slots }

// inBandLimit bounds what one Run sends down the persistent shell (script
// and stdin); bigger inputs stream through an exec channel instead.
const inBandLimit = 256 << 10

// Run runs cmd on the host; see transport.Conn. It uses the persistent
// shell when it is free and the input is small, an exec channel otherwise.
func (c *Conn) Run(ctx context.Context, cmd transport.Cmd) (transport.Result, error) {
	// The caller's stdin, read up to what fits in band with Wrap's own
	// part; Wrap's part (the script) is not copied to be measured.
	w, in, ok, err := c.inBand(ctx, cmd)
	if err != nil {
		return transport.Result{}, err
	}
	if ok && c.alone(cmd, w) {
		if err := c.acquire(ctx); err != nil {
			return transport.Result{}, err
		}
		defer c.release()
		return c.runAlone(ctx, w, cmd.OutputLimit())
	}
	if !ok {
		if err := c.acquire(ctx); err != nil {
			return transport.Result{}, err
		}
		defer c.release()
		rest := io.Reader(bytes.NewReader(in))
		if cmd.Stdin != nil {
			rest = io.MultiReader(rest, cmd.Stdin)
		}
		return c.runExec(ctx, w.Command, io.MultiReader(w.Head(), rest), cmd.OutputLimit())
	}
	sh, err := c.pick(ctx)
	if err != nil {
		return transport.Result{}, err
	}
	if sh == nil { // a session slot is ours
		defer c.release()
		return c.runExec(ctx, w.Command, io.MultiReader(w.Head(), bytes.NewReader(in)), cmd.OutputLimit())
	}
	fo := frameOptsOf(cmd, w)
	if w.Inline != "" {
		// The shell reads the script as text: no sh, no head to start.
		return c.runShell(ctx, sh, w.Inline, true, in, fo, cmd.OutputLimit())
	}
	return c.runShell(ctx, sh, w.Command, false, w.HeadBytes(in), fo, cmd.OutputLimit())
}

// wrap prepares cmd for the host (transport.Wrap) once the connection
// is known open and ctx alive.
func (c *Conn) wrap(ctx context.Context, cmd transport.Cmd) (transport.Wrapped, error) {
	if c.closed.Load() {
		return transport.Wrapped{}, errClosed
	}
	if err := ctx.Err(); err != nil {
		return transport.Wrapped{}, err
	}
	return transport.Wrap(cmd)
}

// pick returns the persistent shell when it is (or can be made) free, or
// nil with a session slot taken for an exec channel.
func (c *Conn) pick(ctx context.Context) (*shell, error) {
	for {
		select {
		case sh := <-c.idle:
			return sh, nil
		default:
		}
		c.mu.Lock()
		st := c.state
		if st == shellNone {
			c.state = shellStarting
		}
		c.mu.Unlock()
		if st == shellNone {
			sh, err := c.startShell(ctx)
			if err == nil {
				return sh, nil
			}
			if ctx.Err() != nil || isDead(c.dead) {
				return nil, c.brokenOrCtx(ctx, "start shell", err)
			}
			continue // refused: state is now shellRefused
		}
		if st == shellRefused {
			return nil, c.acquire(ctx)
		}
		select {
		case sh := <-c.idle:
			return sh, nil
		case c.slots <- struct{}{}:
			return nil, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.dead:
			return nil, c.broken("run", c.err)
		}
	}
}

func (c *Conn) brokenOrCtx(ctx context.Context, what string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return c.broken(what, err)
}

func isDead(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// Close closes the connection, its SFTP session and its jump hosts, once
// the sweeps of abandoned uploads Puts started have finished (or
// sweepGrace passed).
func (c *Conn) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	c.stopBatches()
	swept := make(chan struct{})
	go func() { c.sweeps.Wait(); close(swept) }()
	select { // a sweep takes a few round trips: let it finish
	case <-swept:
	case <-c.dead:
	case <-time.After(sweepGrace):
	}
	c.sftpMu.Lock()
	if c.sftp != nil {
		c.sftp.Close()
	}
	c.sftpMu.Unlock()
	err := c.client.Close()
	for i := len(c.closers) - 1; i >= 0; i-- {
		c.closers[i].Close()
	}
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return err
}
