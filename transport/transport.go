// Package transport is how tender reaches a host: a Conn runs POSIX sh
// scripts on it, moves files to and from it, and opens TCP connections from
// the host's side. The engine and the modules see only these interfaces;
// concrete transports (ssh, local, docker, the transporttest fake) are
// registered by name in a Connections by the program that builds the
// engine. This package imports nothing of tender's own.
package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"strings"
	"time"
)

// Conn is one open connection to one host, kept for a whole run.
//
// A Conn is safe for concurrent use: an implementation that multiplexes
// scripts over one shell serializes them itself, and may open extra channels
// for calls that arrive while one is in progress. Every method honours ctx:
// when ctx ends, the call returns ctx's error promptly and the connection
// stays usable for later calls, unless the transport itself broke.
type Conn interface {
	// Run runs cmd.Script with /bin/sh on the host and waits for it. A
	// non-zero exit status is Result.ExitCode, not an error; an error means
	// the script could not be started or its outcome is unknown (transport
	// failure, ctx ended). Errors that mean the host is gone wrap
	// ErrUnreachable.
	Run(ctx context.Context, cmd Cmd) (Result, error)

	// Put writes src to path dst on the host with the given permission
	// bits, atomically: the data goes to a temporary file in dst's
	// directory whose mode is set before it is renamed over dst, so dst is
	// never seen half written. On error dst is unchanged and no temporary
	// file is left behind, except where the connection died mid-upload:
	// an implementation then removes that file on a later Put (the SSH
	// transport's next Put into that directory does).
	Put(ctx context.Context, dst string, src io.Reader, mode fs.FileMode) error

	// Get copies the host's file src into dst. A missing file is an error
	// that wraps fs.ErrNotExist.
	Get(ctx context.Context, src string, dst io.Writer) error

	// Dial opens a connection to addr from the host's side (for SSH: a
	// direct-tcpip channel), so the host's network and firewall apply.
	Dial(ctx context.Context, network, addr string) (net.Conn, error)

	// Close closes the connection and everything opened through it.
	Close() error
}

// DefaultMaxOutput is what a Run keeps, at most, of a script's stdout and
// of its stderr unless Cmd.MaxOutput says otherwise: a script (or a
// hostile host) that prints more fails the Run with ErrOutputTooLarge
// instead of filling the controller's memory.
const DefaultMaxOutput = 256 << 20

// ErrOutputTooLarge is the error of a Run whose output passed its bound.
var ErrOutputTooLarge = errors.New("the script's output is larger than the controller keeps (transport.DefaultMaxOutput)")

// Bounded is a buffer for a script's output that keeps up to Limit bytes
// and drops the rest, setting Over; the script runs on, and its Run then
// fails with ErrOutputTooLarge.
//
// It has no ReadFrom, so that io.Copy writes through Write.
type Bounded struct {
	buf   bytes.Buffer
	Limit int
	Over  bool
}

// Write implements io.Writer; it never fails.
func (b *Bounded) Write(p []byte) (int, error) {
	if room := b.Limit - b.buf.Len(); len(p) > room {
		b.Over = true
		b.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.buf.Write(p)
}

// Bytes returns what was kept.
func (b *Bounded) Bytes() []byte { return b.buf.Bytes() }

// OutputLimit is the bound on each of cmd's stdout and stderr.
func (cmd Cmd) OutputLimit() int {
	if cmd.MaxOutput > 0 {
		return cmd.MaxOutput
	}
	return DefaultMaxOutput
}

// Cmd is one script to run on a host.
type Cmd struct {
	// Script is a POSIX sh script. Every value interpolated into it must
	// already be quoted for the shell.
	Script string
	// Stdin, when not nil, is the script's standard input. Without it the
	// script reads end-of-file at once.
	Stdin io.Reader
	// Env is exported into the script's environment. Names must be valid
	// shell identifiers.
	Env map[string]string
	// Become, when not nil, runs the script as another user.
	Become *Become
	// MaxOutput, when positive, bounds what the Run keeps of stdout and
	// of stderr instead of DefaultMaxOutput (see OutputLimit).
	MaxOutput int
	// LiveStderr, when not nil, is where Streamer.Stream also writes the
	// script's stderr as it arrives (from one goroutine, Result.Stderr
	// keeping it as ever). Run does not stream, and does not read it.
	LiveStderr io.Writer
	// Final is the module's promise that when the script exits 0 its
	// task is done and did not fail: the module makes no other call on
	// the host for the task. The engine queues the next tasks' scripts
	// behind such a script only (see Ahead); it changes nothing else.
	Final bool
	// Lines is the module's promise that the script prints at most a
	// few short lines of text on stdout (no NUL byte): a transport may
	// copy them with the shell's builtins rather than start a program.
	// It changes nothing the script does, nor what Run returns, with
	// one exception: with Direct, a transport that keeps a shell may
	// take the stdout whole with the shell's command substitution (the
	// SSH transport does), which gives back its trailing newlines only
	// while the shell's EXIT trap marks its end. A script that sets an
	// EXIT trap of its own keeps that mark by printing, last in it,
	// "${__tender_cs-}" (the SSH transport's shell sets it in such a
	// frame; it is empty elsewhere); one that does not, or that sends
	// its stdout elsewhere before it exits, has them come back as one
	// newline (none after no output).
	Lines bool
	// LinesUntil, when not empty, is Lines for the script's stdout up to
	// and including the first line equal to it; after that line the
	// script may print anything (a command's output after the verdict
	// of the module's own gate, say). A script that never prints that
	// line promises Lines. It changes nothing the script does, nor what
	// Run returns.
	LinesUntil string
	// Direct is the module's promise that the script leaves no process
	// behind that could write on its stdout after it exits: a transport
	// that keeps a shell across Runs may then pass the stdout straight
	// into the answer rather than through a file (which guards the later
	// answers from such a process) and a program that copies it. It
	// changes nothing the script does, nor what Run returns.
	Direct bool
	// Stat, when not empty, is an absolute path whose attributes the
	// script reads first (as `stat -c StatFormat` prints them), before
	// it changes anything on the host; Unchanged, with it, is a line the
	// script prints on stdout only when it changed nothing. A transport
	// that sends several such scripts in one write may read all their
	// paths with one stat program ahead of them and hand each script its
	// path's line: the SSH transport's shell then holds, in __tender_sf,
	// a line "PATH<tab>ATTRIBUTES" (each after a newline) per path stat
	// could read, and in __tender_sp the script's own path; both are
	// empty once a script before it in the write failed or did not print
	// its Unchanged line, and after the write. It changes nothing the
	// script does, nor what Run returns.
	Stat string
	// Passwd, when not empty, is a user name whose passwd entry the
	// script reads first (as `getent passwd NAME` prints it), before it
	// changes anything on the host, for a script that prints Unchanged
	// when it changed nothing. As with Stat, a transport may read the
	// entries of several such scripts with one program ahead of them:
	// the SSH transport's shell then holds, in __tender_sf, each entry
	// getent found (each after a newline), and in __tender_sp the
	// script's own name, under the same rules. Group is the same for a
	// group's entry (getent group NAME). A Cmd names at most one of
	// Stat, Passwd and Group. They change nothing the script does, nor
	// what Run returns.
	Passwd    string
	Group     string
	Unchanged string
	// Lib is shell text Script relies on, in pieces that only define:
	// functions, and variables set to constant values; a piece prints
	// nothing, reads nothing and changes nothing on the host. Each piece
	// is one constant text (a package-level string of the module) that
	// ends with a newline, and
	// no two pieces define the same name differently. The script runs as
	// if the pieces, in order, were written at its top; a transport that
	// keeps a shell across Runs may define each piece once per shell and
	// let later Runs that carry the same piece use it, which saves
	// sending and parsing it again (see Text).
	Lib []string
	// Alone is the caller's promise that this Run is the only one it
	// makes on the connection. A transport may then run the script by
	// itself rather than set up what would serve later Runs (the SSH
	// transport's persistent shell and its private directory), which on
	// a host costs more than a short script. It changes nothing the
	// script does, nor what Run returns.
	Alone bool
}

// StatFormat is the format of the attributes Cmd.Stat reads, for stat -c:
// mode (octal), uid, gid, size, links, owner, group, file type.
const StatFormat = "%a %u %g %s %h %U %G %F"

// Text is the whole script cmd runs: its Lib's pieces, then Script, as
// one text, for a transport (or a wrapper) that runs it from a file or a
// stream of its own.
func (c Cmd) Text() string {
	if len(c.Lib) == 0 {
		return c.Script
	}
	return strings.Join(c.Lib, "") + c.Script
}

// Become says how to run a script as another user, as Ansible's become
// keywords do. Only the "sudo" method is supported today.
type Become struct {
	Method string // "sudo" (the default when empty)
	User   string // the user to become; "root" when empty
	// Password is fed to sudo on standard input, never on a command line.
	// Empty means sudo must not ask for one (NOPASSWD or cached).
	Password string
	// Flags replace the method's own flags (become_flags), as in
	// Ansible; sudo keeps reading the password from stdin without a
	// prompt (-S -p ''), or refusing to ask for one (-n).
	Flags string
	// Exe is the method's program (become_exe); empty means its name.
	Exe string
}

// Result is what a finished script left behind.
type Result struct {
	ExitCode int
	Stdout   []byte
	Stderr   []byte
	// Start and End, when set, are when the script ran, as near as the
	// transport can tell: set for a script queued by RunAhead, which ran
	// before its caller asked for its result.
	Start, End time.Time
}

// Target says where a host is and how to log in, from the inventory's
// connection variables (ansible_host, ansible_port, ansible_user, ...).
type Target struct {
	Name     string   // inventory hostname, for messages
	Host     string   // address to connect to (ansible_host or Name)
	Port     int      // 0 means the transport's default
	User     string   // login user; empty means the transport's default
	Password string   // login password, never logged
	KeyFiles []string // private key files to offer, in order
	// Keys are private keys held in memory, offered before KeyFiles
	// (a control plane's keys, never written to a file). Their String
	// hides them.
	Keys []Key
	// Options are the connection type's own settings beyond the fields
	// above, by option name (for ssh: ssh_common_args; for docker:
	// docker_extra_args, working_dir, privileged, extra_env), read from
	// the variables and configuration its Params name.
	Options map[string]any
	// Files, when set, vets the controller files the connection would
	// use because of the fields above (see Files); nil allows every
	// file. The engine sets it to its sandbox.
	Files Files
}

// Dialer opens connections. Implementations are safe for concurrent use.
type Dialer interface {
	// Connect opens a connection to t. A host that cannot be reached or
	// refuses the login yields an error wrapping ErrUnreachable.
	Connect(ctx context.Context, t Target) (Conn, error)
}

// Warner is an optional interface of a Dialer: what the operator should
// know about reaching t before it is reached, such as a known_hosts line
// that had to be skipped. Each warning is one sentence that does not name
// t, so that the hosts sharing it can be reported together. Warnings must
// be cheap and never touch the network; a target the Dialer cannot make
// sense of has none (Connect reports the problem).
type Warner interface {
	Warnings(t Target) []string
}

// ErrUnreachable marks errors that mean the host cannot be used at all: it
// does not answer, refuses the login, or the connection broke. The engine
// counts such hosts as unreachable rather than failed.
var ErrUnreachable = errors.New("host unreachable")

// ErrAuth marks a login the host refused: no key or password it took.
var ErrAuth = errors.New("authentication refused")

// ErrHostKey marks a host whose key was refused by the host key policy
// (unknown under strict checking, or changed).
var ErrHostKey = errors.New("host key refused")

// ErrTimeout marks a connection that did not finish in time (the TCP
// connect or the protocol's handshake).
var ErrTimeout = errors.New("connection timed out")

// Unreachable wraps err so that errors.Is(err, ErrUnreachable) holds,
// naming the host.
func Unreachable(host string, err error) error {
	return &unreachableError{host: host, err: err}
}

type unreachableError struct {
	host string
	err  error
}

func (e *unreachableError) Error() string {
	return fmt.Sprintf("%s: unreachable: %v", e.host, e.err)
}

func (e *unreachableError) Unwrap() []error { return []error{ErrUnreachable, e.err} }
