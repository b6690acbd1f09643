// Package sshtest is an in-process SSH server for tests: it executes exec
// and shell requests with the local /bin/sh, serves SFTP with pkg/sftp,
// forwards direct-tcpip channels, and counts what its clients ask for, so
// tests can prove how many channels, requests and round trips an operation
// costs. It can also refuse shell sessions, drop handshakes, add latency,
// limit bandwidth, delay handshakes and hang. A Fleet runs thousands of
// such servers in one process, each a simulated host with its own address,
// host key and root directory, for scale tests of the controller.
package sshtest

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	mrand "math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// Options configures a Server. The zero value accepts nothing: set Users
// or AuthorizedKeys for logins to succeed.
type Options struct {
	// Passwords maps a user name to the password that logs it in.
	Passwords map[string]string
	// AuthorizedKeys are the public keys that log in any user.
	AuthorizedKeys []ssh.PublicKey
	// HostKey is the server's host key; a fresh ed25519 key when nil.
	HostKey ssh.Signer
	// RefuseShell makes the server refuse persistent shell sessions: "shell"
	// requests, and exec requests whose command only starts a shell reading
	// its standard input (such as "/bin/sh" or "exec /bin/sh"), as a
	// restricted server would.
	RefuseShell bool
	// NoSFTP refuses the sftp subsystem.
	NoSFTP bool
	// DropHandshakes closes the first n accepted connections before the SSH
	// version exchange, as OpenSSH does under MaxStartups throttling.
	DropHandshakes int
	// Latency delays everything the server receives by this much, so that
	// one client round trip costs at least Latency.
	Latency time.Duration
	// MaxSessions, when positive, refuses session channels beyond this many
	// open at once on one connection, as OpenSSH's MaxSessions does.
	MaxSessions int

	// Dir, when set, is the directory commands run in, and their HOME: a
	// simulated host's own root (see Fleet). Empty: the server's own
	// working directory and environment.
	Dir string
	// SFTPCommand, when set, is the program run for the sftp subsystem
	// (in Dir, its stdio on the channel), as sshd's Subsystem line runs
	// sftp-server; nil serves SFTP in-process with pkg/sftp.
	SFTPCommand []string
	// DropRate is the probability that an accepted connection is closed
	// before the SSH version exchange (on top of DropHandshakes).
	DropRate float64
	// HandshakeDelay delays the server's side of the SSH version exchange
	// of every connection, like a loaded sshd or a slow key exchange.
	HandshakeDelay time.Duration
	// Bandwidth, when positive, limits each connection to this many bytes
	// per second in each direction.
	Bandwidth int64
	// Hang makes the server accept TCP connections and then never answer,
	// like a host whose sshd is wedged: clients notice only by timeouts.
	Hang bool
}

// Stats counts what clients asked for, over all connections.
type Stats struct {
	Conns    int64 // accepted SSH connections (after the handshake)
	Channels int64 // channels opened, of any type
	Sessions int64 // session channels opened
	Requests int64 // channel requests (exec, shell, subsystem, env, signal, ...)
	Execs    int64 // exec requests
	// Writes counts the pieces of commands' standard output relayed to
	// their channels: each read from a command's stdout pipe is one
	// channel write, as sshd sends a data packet per read.
	Writes int64
}

// Server is a running in-process SSH server.
type Server struct {
	opts    Options
	ln      net.Listener
	config  *ssh.ServerConfig
	hostKey ssh.Signer
	dropped atomic.Int64
	latency atomic.Int64

	conns, channels, sessions, requests, execs, writes atomic.Int64

	mu     sync.Mutex
	open   map[net.Conn]struct{}
	procs  map[int]struct{} // process groups of running commands
	closed bool
	wg     sync.WaitGroup
}

// Start starts a server on 127.0.0.1 and stops it when t ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// New starts a server on a free port of 127.0.0.1.
func New(opts Options) (*Server, error) {
	s := &Server{opts: opts, open: map[net.Conn]struct{}{}, procs: map[int]struct{}{}}
	s.latency.Store(int64(opts.Latency))
	s.hostKey = opts.HostKey
	if s.hostKey == nil {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, err
		}
		if s.hostKey, err = ssh.NewSignerFromKey(priv); err != nil {
			return nil, err
		}
	}
	s.config = &ssh.ServerConfig{
		PasswordCallback: func(c ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
			if want, ok := opts.Passwords[c.User()]; ok && want == string(pw) {
				return &ssh.Permissions{}, nil
			}
			return nil, errors.New("wrong password")
		},
		PublicKeyCallback: func(c ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
			for _, k := range opts.AuthorizedKeys {
				if string(k.Marshal()) == string(key.Marshal()) {
					return &ssh.Permissions{}, nil
				}
			}
			return nil, errors.New("key not authorized")
		},
	}
	s.config.AddHostKey(s.hostKey)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s.ln = ln
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Host is the server's IP address as a string.
func (s *Server) Host() string { return s.ln.Addr().(*net.TCPAddr).IP.String() }

// Port is the server's TCP port.
func (s *Server) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// SetLatency changes the delay added to everything the server receives
// from now on (see Options.Latency).
func (s *Server) SetLatency(d time.Duration) { s.latency.Store(int64(d)) }

// HostKey is the server's public host key.
func (s *Server) HostKey() ssh.PublicKey { return s.hostKey.PublicKey() }

// Stats returns the counters so far.
func (s *Server) Stats() Stats {
	return Stats{
		Conns: s.conns.Load(), Channels: s.channels.Load(), Sessions: s.sessions.Load(),
		Requests: s.requests.Load(), Execs: s.execs.Load(), Writes: s.writes.Load(),
	}
}

// Close stops the server, closes every connection and kills every command
// it started.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	err := s.ln.Close()
	for c := range s.open {
		c.Close()
	}
	s.mu.Unlock()
	// Commands whose stdin just closed usually exit by themselves (and
	// clean up after themselves); kill the ones that do not.
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		s.mu.Lock()
		n := len(s.procs)
		s.mu.Unlock()
		if n == 0 {
			break
		}
	}
	s.mu.Lock()
	for pgid := range s.procs {
		killGroup(pgid)
	}
	s.mu.Unlock()
	s.wg.Wait()
	return err
}

func (s *Server) accept() {
	defer s.wg.Done()
	var backoff time.Duration
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			// Out of descriptors (EMFILE, ENFILE) is for a while, as
			// for sshd: wait and accept again, until closed.
			if errors.Is(err, net.ErrClosed) || !acceptAgain(err) {
				return
			}
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			time.Sleep(backoff)
			continue
		}
		backoff = 0
		if s.dropped.Add(1) <= int64(s.opts.DropHandshakes) || (s.opts.DropRate > 0 && mrand.Float64() < s.opts.DropRate) {
			nc.Close()
			continue
		}
		if s.opts.Hang {
			// Held open, never read nor written, until Close.
			if !s.track(nc) {
				nc.Close()
				return
			}
			continue
		}
		if s.opts.Bandwidth > 0 {
			nc = newRateConn(nc, s.opts.Bandwidth)
		}
		nc = newDelayConn(nc, &s.latency)
		if !s.track(nc) {
			nc.Close()
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer s.untrack(nc)
			s.serveConn(nc)
		}()
	}
}

// acceptAgain reports whether an Accept error passes: the process or the
// system ran out of descriptors, or a connection was reset before it was
// accepted.
func acceptAgain(err error) bool {
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) ||
		errors.Is(err, syscall.ECONNABORTED) || errors.Is(err, syscall.ENOBUFS) || errors.Is(err, syscall.ENOMEM)
}

func (s *Server) track(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.open[c] = struct{}{}
	return true
}

func (s *Server) untrack(c net.Conn) {
	s.mu.Lock()
	delete(s.open, c)
	s.mu.Unlock()
	c.Close()
}

func (s *Server) serveConn(nc net.Conn) {
	if d := s.opts.HandshakeDelay; d > 0 {
		time.Sleep(d)
	}
	sc, chans, reqs, err := ssh.NewServerConn(nc, s.config)
	if err != nil {
		return
	}
	defer sc.Close()
	s.conns.Add(1)
	go ssh.DiscardRequests(reqs)
	var sessions atomic.Int64
	for nch := range chans {
		s.channels.Add(1)
		switch nch.ChannelType() {
		case "session":
			s.sessions.Add(1)
			if max := s.opts.MaxSessions; max > 0 && sessions.Load() >= int64(max) {
				nch.Reject(ssh.Prohibited, "too many sessions")
				continue
			}
			sessions.Add(1)
			go func() {
				defer sessions.Add(-1)
				s.serveSession(nch)
			}()
		case "direct-tcpip":
			go s.serveDirect(nch)
		default:
			nch.Reject(ssh.UnknownChannelType, "unsupported channel type")
		}
	}
}
