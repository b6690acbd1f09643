package transporttest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"os"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tender-sh/tender/transport"
)

// Fake is an in-memory stand-in for a fleet of hosts, for engine and
// module tests: a transport.Dialer whose hosts keep their files in a map,
// run scripts through a pluggable Handler (by default Shell: /bin/sh on
// this machine, in the host's private root directory), record every call
// and fail on demand (latency, a refused connection, going down after N
// round trips or on a chosen call).
//
// Hosts are made on first use, by Host or by Connect, and are keyed by
// the inventory name (Target.Name). A Fake and its hosts are safe for
// concurrent use; configure a host before the code under test connects.
type Fake struct {
	dir string

	mu    sync.Mutex
	hosts map[string]*Host
}

var _ transport.Dialer = (*Fake)(nil)

// NewFake returns an empty fake fleet whose hosts' root directories live
// in a temporary directory removed when t ends.
func NewFake(t testing.TB) *Fake {
	return NewFakeIn(t.TempDir())
}

// NewFakeIn returns an empty fake fleet whose hosts' root directories
// live under dir, which must be writable (Host panics otherwise) and which
// the caller removes: a fake for use outside go test (a control plane's
// dry run, a demo).
func NewFakeIn(dir string) *Fake {
	return &Fake{dir: dir, hosts: map[string]*Host{}}
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// Host returns the host named name, making it on first use.
func (f *Fake) Host(name string) *Host {
	f.mu.Lock()
	defer f.mu.Unlock()
	if h, ok := f.hosts[name]; ok {
		return h
	}
	root := filepath.Join(f.dir, fmt.Sprintf("%d-%s", len(f.hosts), unsafeName.ReplaceAllString(name, "_")))
	h := newHost(name, root)
	f.hosts[name] = h
	return h
}

// Hosts lists the names of the hosts made so far, sorted.
func (f *Fake) Hosts() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Sorted(maps.Keys(f.hosts))
}

// Connect opens a connection to the host named t.Name. It is recorded as
// an OpConnect call (without the password) and honours the host's faults:
// latency, Faults.ConnectErr, Faults.Fail and a host that is down all make
// it fail with an error wrapping transport.ErrUnreachable.
func (f *Fake) Connect(ctx context.Context, t transport.Target) (transport.Conn, error) {
	h := f.Host(t.Name)
	rec := t
	rec.Password = ""
	i, err := h.begin(ctx, Call{Op: OpConnect, Target: rec})
	if err == nil {
		h.mu.Lock()
		if ce := h.faults.ConnectErr; ce != nil {
			err = ce
		} else if t.User != "" {
			h.user = t.User
		}
		h.mu.Unlock()
	}
	if err != nil && !errors.Is(err, transport.ErrUnreachable) && ctx.Err() == nil {
		err = transport.Unreachable(t.Name, err)
	}
	h.end(i, err)
	if err != nil {
		return nil, err
	}
	return &fakeConn{h: h}, nil
}

// Handler runs the scripts sent to a fake host. cmd.Stdin, when not nil,
// holds a copy of what the caller sent. A handler may read and change the
// host's files through h. It follows transport.Conn.Run's contract: a
// non-zero exit is Result.ExitCode, an error means the script's outcome is
// unknown.
type Handler func(ctx context.Context, h *Host, cmd transport.Cmd) (transport.Result, error)

// DialFunc opens a connection from a fake host's side.
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// Faults are the failures a fake host injects. The zero value injects none.
type Faults struct {
	// Latency is added before every call, Connect included (a call whose
	// ctx ends while it waits returns ctx's error).
	Latency time.Duration
	// ConnectErr, when not nil, makes every Connect fail with it (wrapped
	// so that it is an ErrUnreachable).
	ConnectErr error
	// DownAfter, when positive, lets that many round trips (Run, Put, Get,
	// Dial) through; from the next one on the host is down: every call
	// fails with an error wrapping transport.ErrUnreachable.
	DownAfter int
	// Fail, when not nil, sees every call before it is carried out (with
	// Seq and Trip set); a non-nil error is returned instead of carrying it
	// out, for that call only. Use ErrDown for a connection that broke.
	Fail func(Call) error
}

// ErrDown is what a fake host that went down answers, wrapped with the
// host's name in an error that also wraps transport.ErrUnreachable.
var ErrDown = errors.New("connection lost (fake host is down)")

// Host is one fake host: its files, its script handler, its faults and
// the record of every call made to it.
type Host struct {
	name string
	root string

	mu      sync.Mutex
	user    string
	files   map[string]*entry
	handler Handler
	dial    DialFunc
	faults  Faults
	down    bool
	trips   int
	calls   []Call
}

func newHost(name, root string) *Host {
	h := &Host{name: name, root: root, user: currentUser(), files: map[string]*entry{},
		handler: Shell, dial: (&net.Dialer{Timeout: 30 * time.Second}).DialContext}
	// The root and its tmp (TMPDIR for Shell) exist from the start.
	for _, d := range []string{root, filepath.Join(root, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			panic("transporttest: " + err.Error()) // the fleet's directory is writable
		}
	}
	h.mu.Lock()
	h.syncLocked()
	h.mu.Unlock()
	return h
}

func currentUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "root"
}

// Name is the host's inventory name.
func (h *Host) Name() string { return h.name }

// Root is the host's private directory on this machine: Shell runs
// scripts there (as HOME and working directory, with TMPDIR=Root/tmp), and
// files under it are shared between the in-memory store and the scripts.
func (h *Host) Root() string { return h.root }

// SetHandler replaces the host's script handler (Shell by default).
func (h *Host) SetHandler(fn Handler) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.handler = fn
}

// SetDial replaces how the host dials out (by default: directly from this
// machine).
func (h *Host) SetDial(fn DialFunc) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.dial = fn
}

// SetFaults replaces the host's faults.
func (h *Host) SetFaults(f Faults) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.faults = f
}

// SetDown takes the host down (every later call fails as unreachable) or
// brings it back.
func (h *Host) SetDown(down bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.down = down
}
