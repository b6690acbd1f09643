// Package ssh is tender's SSH transport: one connection per host for a
// whole run, scripts down a persistent sh (one round trip each) with exec
// channels as the fallback, SFTP for files, direct-tcpip for Dial, host
// keys checked against known_hosts, ~/.ssh/config honoured, and ProxyJump
// through any number of bastions. It is the only package of tender that
// imports golang.org/x/crypto/ssh and github.com/pkg/sftp.
package ssh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	xssh "golang.org/x/crypto/ssh"

	"github.com/tender-sh/tender/transport"
)

// Defaults for the Dialer's zero fields.
const (
	DefaultPort              = 22
	DefaultConnectTimeout    = 10 * time.Second
	DefaultHandshakeTimeout  = 20 * time.Second
	DefaultKeepaliveInterval = 15 * time.Second
	DefaultKeepaliveCountMax = 3
	// DefaultMaxSessions keeps below OpenSSH's MaxSessions of 10: the
	// persistent shell, SFTP and up to six exec channels at once.
	DefaultMaxSessions      = 8
	DefaultHandshakeRetries = 3
)

// Dialer opens SSH connections. Set its fields before the first Connect
// and do not change or copy it afterwards; it is safe for concurrent use
// and caches what all connections share (the parsed ssh config, known_hosts
// and decrypted keys).
type Dialer struct {
	// KnownHosts are the known_hosts files to check host keys against, the
	// first also being where accept-new records new hosts. Empty means the
	// host's UserKnownHostsFile from ssh config, else ~/.ssh/known_hosts.
	KnownHosts []string
	// HostKeys is the host key policy. HostKeyDefault takes the host's
	// StrictHostKeyChecking from ssh config or the target's common args
	// (where "no" means accept-new: a changed key is never accepted), and
	// is strict otherwise. Only an explicit HostKeyInsecure skips checking.
	HostKeys HostKeyPolicy
	// User is the login user when neither the target nor ssh config names
	// one; empty means the local user.
	User string
	// KeyFiles are private key files offered to every host, after the
	// target's own.
	KeyFiles []string
	// AgentSocket is the ssh-agent socket; empty means $SSH_AUTH_SOCK.
	AgentSocket string
	// NoAgent turns the agent off.
	NoAgent bool
	// Password is the login password for targets without their own.
	Password string
	// Passphrase, when not nil, is asked for the passphrase of an
	// encrypted key file, once per file for the Dialer's life.
	Passphrase func(keyFile string) ([]byte, error)
	// ConfigFile is the ssh config to read; empty means ~/.ssh/config
	// (when it exists) and "none" means no config at all.
	ConfigFile string
	// ConnectTimeout bounds the TCP connect (DefaultConnectTimeout).
	ConnectTimeout time.Duration
	// HandshakeTimeout bounds the SSH handshake and authentication
	// (DefaultHandshakeTimeout), which x/crypto alone does not.
	HandshakeTimeout time.Duration
	// KeepaliveInterval is how often an idle connection is probed
	// (DefaultKeepaliveInterval); negative turns keepalives off.
	KeepaliveInterval time.Duration
	// KeepaliveCountMax is how many probes in a row may go unanswered
	// before the connection is declared dead (DefaultKeepaliveCountMax).
	KeepaliveCountMax int
	// MaxSessions bounds the session channels open at once on one
	// connection (DefaultMaxSessions); keep it below the server's
	// MaxSessions.
	MaxSessions int
	// HandshakeRetries is how many times a handshake that the server
	// dropped (as OpenSSH does under MaxStartups) is retried, with
	// exponential backoff (DefaultHandshakeRetries); negative means none.
	HandshakeRetries int
	// NoShell runs every script on its own exec channel instead of the
	// persistent shell (for hosts where that misbehaves, and benchmarks).
	NoShell bool

	once   sync.Once
	config *sshConfig
	keys   keyCache
	known  knownHostsCache
	jumps  jumpPool

	shellCommand string // tests only: replaces shellCommand
}

var (
	_ transport.Dialer = (*Dialer)(nil)
	_ transport.Warner = (*Dialer)(nil)
)

func (d *Dialer) init() {
	d.once.Do(func() { d.config = loadConfig(d.ConfigFile) })
}

// Connect opens one SSH connection to t, through t's jump hosts if any.
// Every failure to reach or log in to the host wraps
// transport.ErrUnreachable; host key problems are also *HostKeyError.
func (d *Dialer) Connect(ctx context.Context, t transport.Target) (transport.Conn, error) {
	d.init()
	name := t.Name
	if name == "" {
		name = t.Host
	}
	fail := func(err error) (transport.Conn, error) {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%s: connect: %w", name, ctx.Err())
		}
		if refused := (*refusedError)(nil); errors.As(err, &refused) {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return nil, transport.Unreachable(name, err)
	}
	if d.config.err != nil {
		return fail(d.config.err)
	}
	target, jumps, err := d.resolve(t)
	if err != nil {
		return fail(err)
	}
	if err := vet(append(jumps, target)); err != nil {
		return fail(err)
	}
	var (
		via     *xssh.Client
		closers []io.Closer
	)
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i].Close()
		}
	}
	hops := append(jumps, target)
	for i, h := range hops {
		var cl *xssh.Client
		if i < len(jumps) {
			prev := via
			var release func()
			cl, release, err = d.jumps.get(ctx, jumpKey(hops[:i+1]), func() (*xssh.Client, error) {
				return d.dialHop(ctx, prev, h)
			})
			if err == nil {
				closers = append(closers, closerFunc(release))
				via = cl
				continue
			}
		} else {
			cl, err = d.dialHop(ctx, via, h)
		}
		if err != nil {
			closeAll()
			if i > 0 {
				err = fmt.Errorf("via jump host %s: %w", hops[i-1].alias, err)
			}
			return fail(err)
		}
		closers = append(closers, cl)
		via = cl
	}
	return newConn(name, via, closers[:len(closers)-1], connOptions{
		maxSessions:       or(d.MaxSessions, DefaultMaxSessions),
		noShell:           d.NoShell,
		keepaliveInterval: keepaliveInterval(d.KeepaliveInterval),
		keepaliveCountMax: or(d.KeepaliveCountMax, DefaultKeepaliveCountMax),
		shellCommand:      d.shellCommand,
	}), nil
}

func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

func keepaliveInterval(v time.Duration) time.Duration {
	if v < 0 {
		return 0
	}
	return or(v, DefaultKeepaliveInterval)
}

// dialHop connects and logs in to h, directly or through via, retrying a
// handshake the server dropped.
func (d *Dialer) dialHop(ctx context.Context, via *xssh.Client, h *hop) (*xssh.Client, error) {
	retries := d.HandshakeRetries
	if retries == 0 {
		retries = DefaultHandshakeRetries
	}
	backoff := 100 * time.Millisecond
	for attempt := 0; ; attempt++ {
		cl, err := d.handshake(ctx, via, h)
		if err == nil || attempt >= retries || !droppedHandshake(err) || ctx.Err() != nil {
			return cl, err
		}
		wait := backoff + rand.N(backoff)
		backoff *= 2
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// droppedHandshake reports whether err is the server closing the
// connection before authentication finished, rather than a refusal.
func droppedHandshake(err error) bool {
	var hk *HostKeyError
	if errors.As(err, &hk) {
		return false
	}
	return errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.ErrUnexpectedEOF)
}

// connectTimedOut reports whether a TCP connect failed for want of time:
// the connect timeout passed, or the system gave up (ETIMEDOUT).
func connectTimedOut(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

func (d *Dialer) handshake(ctx context.Context, via *xssh.Client, h *hop) (*xssh.Client, error) {
	addr := net.JoinHostPort(h.host, strconv.Itoa(h.port))
	dctx, cancel := context.WithTimeout(ctx, or(d.ConnectTimeout, DefaultConnectTimeout))
	defer cancel()
	var (
		nc  net.Conn
		err error
	)
	if via != nil {
		nc, err = via.DialContext(dctx, "tcp", addr)
	} else {
		var nd net.Dialer
		nc, err = nd.DialContext(dctx, "tcp", addr)
	}
	if err != nil {
		if connectTimedOut(err) && ctx.Err() == nil {
			err = fmt.Errorf("%w: %w", transport.ErrTimeout, err)
		}
		return nil, fmt.Errorf("connect to %s: %w", addr, err)
	}
	config, cleanup, err := d.clientConfig(h, addr)
	if err != nil {
		nc.Close()
		return nil, err
	}
	defer cleanup()
	// A timer rather than a deadline: connections through a jump host
	// are SSH channels, which have no deadlines.
	var timedOut atomic.Bool
	timer := time.AfterFunc(or(d.HandshakeTimeout, DefaultHandshakeTimeout), func() {
		timedOut.Store(true)
		nc.Close()
	})
	stop := context.AfterFunc(ctx, func() { nc.Close() })
	sc, chans, reqs, err := xssh.NewClientConn(nc, addr, config)
	stop()
	timer.Stop()
	if err != nil {
		nc.Close()
		switch {
		case timedOut.Load():
			err = fmt.Errorf("handshake not finished after %v: %w: %w", or(d.HandshakeTimeout, DefaultHandshakeTimeout), transport.ErrTimeout, err)
		case strings.Contains(err.Error(), "unable to authenticate"):
			// x/crypto/ssh's refusal has no type of its own
			err = fmt.Errorf("%w: %w", transport.ErrAuth, err)
		}
		return nil, fmt.Errorf("ssh %s@%s: %w", h.user, addr, err)
	}
	return xssh.NewClient(sc, chans, reqs), nil
}

func (d *Dialer) clientConfig(h *hop, addr string) (*xssh.ClientConfig, func(), error) {
	hostKey, algos, err := d.hostKeyCallback(h, addr)
	if err != nil {
		return nil, nil, err
	}
	auth, cleanup, err := d.authMethods(h)
	if err != nil {
		return nil, nil, err
	}
	return &xssh.ClientConfig{
		User:              h.user,
		Auth:              auth,
		HostKeyCallback:   hostKey,
		HostKeyAlgorithms: algos,
		ClientVersion:     "SSH-2.0-tender",
	}, cleanup, nil
}
