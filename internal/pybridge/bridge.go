// Package pybridge runs Python filter and test plugins (the
// filter_plugins/ and test_plugins/ that roles and playbooks ship, and
// collections' plugins/filter and plugins/test) in one Python process on
// the controller, started when a template first needs one and kept for
// the run: one JSON request per line on its standard input, one JSON
// answer per line on its standard output (bridge.py). Every call is
// bounded in time, the process in memory (RLIMIT_AS), and a call that
// times out or is cancelled kills it; the next call starts another.
package pybridge

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/tender-sh/tender/internal/ctlpython"
	"github.com/tender-sh/tender/internal/osproc"
)

//go:embed bridge.py
var script string

// File is a plugin file and the prefix its names take: "" for a
// playbook's or role's plugin (called by its short name), "ns.coll." for
// a collection's.
type File struct {
	Path, Prefix string
}

// Bridge is one Python process serving plugin calls. The zero value is
// not usable: make one with New. It is safe for concurrent use (calls
// are served one at a time).
type Bridge struct {
	// Timeout bounds each call (default 60s).
	Timeout time.Duration
	// Memory bounds the process's address space in bytes (default 2 GiB).
	Memory int64

	python string
	mu     sync.Mutex
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *limitedBuffer
	waited chan struct{}
}

// New returns a bridge that will run python ("" for the controller's,
// as ctlpython finds it).
func New(python string) *Bridge {
	return &Bridge{python: python, Timeout: 60 * time.Second, Memory: 2 << 30}
}

// maxAnswer bounds one answer's size.
const maxAnswer = 64 << 20

// start starts the process. b.mu is held.
func (b *Bridge) start() error {
	py := b.python
	if py == "" {
		info, err := ctlpython.Load()
		if err != nil {
			return fmt.Errorf("Python plugins need a Python on the controller: %w", err)
		}
		py = info.Python
	}
	cmd := exec.Command(py, "-c", script)
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "TENDER_BRIDGE_MEMORY="+strconv.FormatInt(b.Memory, 10))
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	b.stderr = &limitedBuffer{max: 64 << 10}
	cmd.Stderr = b.stderr
	osproc.Group(cmd, false)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s for Python plugins: %w", py, err)
	}
	b.cmd, b.in, b.out, b.waited = cmd, in, bufio.NewReaderSize(out, 64<<10), make(chan struct{})
	go func(c *exec.Cmd, done chan struct{}) {
		_ = c.Wait()
		close(done)
	}(cmd, b.waited)
	return nil
}

// stop kills the process. b.mu is held.
func (b *Bridge) stop() {
	if b.cmd == nil {
		return
	}
	_ = b.in.Close()
	_ = osproc.Kill(b.cmd)
	<-b.waited
	b.cmd = nil
}

// Close stops the process, if one runs.
func (b *Bridge) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stop()
	return nil
}

// answer is one line of the process's answers.
type answer struct {
	OK       json.RawMessage `json:"ok"`
	Errors   []string        `json:"errors"`
	Error    *string         `json:"error"`
	Type     string          `json:"type"`
	Class    string          `json:"class"`
	Category string          `json:"category"`
}

// PluginError is an exception a plugin raised.
type PluginError struct {
	// Type is the exception's class name, Class its qualified name
	// (the module's, but for builtins).
	Type, Class, Msg string
	// Category is how Ansible's templar treats it: undefined (an
	// undefined variable), options (bad options), lookup (a lookup that
	// failed on purpose), other.
	Category string
}

func (e *PluginError) Error() string { return e.Msg }

// request sends one request and reads its answer, bounded by ctx and
// Timeout.
func (b *Bridge) request(ctx context.Context, req []byte) (*answer, error) {
	return b.exchange(ctx, req, nil)
}

// RPC serves what a running plugin asks of tender (an action plugin's
// commands and files): it gets the request line and returns the answer
// to write back.
type RPC func(ctx context.Context, req []byte) ([]byte, error)

// exchange sends one request and reads its answer, serving the plugin's
// RPCs in between with serve (nil refuses them), bounded by ctx and
// Timeout (which the time spent serving does not count against).
func (b *Bridge) exchange(ctx context.Context, req []byte, serve RPC) (*answer, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cmd == nil {
		if err := b.start(); err != nil {
			return nil, err
		}
	}
	type result struct {
		line []byte
		err  error
	}
	var r result
	for {
		got := make(chan result, 1)
		go func(msg []byte) {
			if _, err := b.in.Write(append(msg, '\n')); err != nil {
				got <- result{err: err}
				return
			}
			line, err := readLine(b.out, maxAnswer)
			got <- result{line, err}
		}(req)
		timer := time.NewTimer(b.Timeout)
		select {
		case r = <-got:
			timer.Stop()
		case <-ctx.Done():
			timer.Stop()
			b.stop()
			return nil, ctx.Err()
		case <-timer.C:
			b.stop()
			return nil, fmt.Errorf("a Python plugin ran longer than %s: stopped", b.Timeout)
		}
		if r.err != nil || !bytes.HasPrefix(r.line, []byte(`{"rpc"`)) {
			break
		}
		if serve == nil {
			req = []byte(`{"error": "tender serves no requests to this plugin"}`)
			continue
		}
		reply, err := serve(ctx, r.line)
		if err != nil {
			if ctx.Err() != nil {
				b.stop()
				return nil, ctx.Err()
			}
			msg, _ := json.Marshal(map[string]string{"error": err.Error()})
			reply = msg
		}
		req = reply
	}
	if r.err != nil {
		b.stop()
		msg := b.stderr.String()
		return nil, fmt.Errorf("the Python plugin process failed: %v%s", r.err, tail(msg))
	}
	var a answer
	if err := json.Unmarshal(r.line, &a); err != nil {
		b.stop()
		return nil, fmt.Errorf("the Python plugin process answered %q: %v", truncate(string(r.line)), err)
	}
	if a.Error != nil {
		return nil, &PluginError{Type: a.Type, Class: a.Class, Msg: *a.Error, Category: a.Category}
	}
	return &a, nil
}

// Names loads files (each once) and returns the names of the plugins
// of kind (filter or test) loaded so far, with the error of each file
// that did not load.
func (b *Bridge) Names(ctx context.Context, kind string, files []File) (names, errs []string, err error) {
	pairs := make([][2]string, len(files))
	for i, f := range files {
		pairs[i] = [2]string{f.Path, f.Prefix}
	}
	req, err := json.Marshal(map[string]any{"op": "names", "kind": kind, "files": pairs})
	if err != nil {
		return nil, nil, err
	}
	a, err := b.request(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	if err := json.Unmarshal(a.OK, &names); err != nil {
		return nil, nil, err
	}
	return names, a.Errors, nil
}

// Call runs the plugin name of kind on value, args and kwargs, each
// already JSON (the caller's encoding, which the bridge decodes), and
// returns its result as JSON.
func (b *Bridge) Call(ctx context.Context, kind, name, value, args, kwargs string) ([]byte, error) {
	req := fmt.Sprintf(`{"op": "call", "kind": %q, "name": %s, "value": %s, "args": %s, "kwargs": %s}`,
		kind, strconv.Quote(name), value, args, kwargs)
	if !json.Valid([]byte(req)) {
		return nil, errors.New("pybridge: a call's arguments are not JSON")
	}
	a, err := b.request(ctx, []byte(req))
	if err != nil {
		return nil, err
	}
	return a.OK, nil
}

// Lookup is one lookup plugin's run: by its file (a playbook's or
// role's lookup_plugins/NAME.py), or, with File empty, by its fully
// qualified name through ansible-core's plugin loader, the collections
// found in Roots. Terms, Kwargs and Variables are JSON.
type Lookup struct {
	Name, File, BaseDir      string
	Roots                    []string
	Terms, Kwargs, Variables string
}

// RunLookup runs a lookup plugin (which needs ansible-core in the
// bridge's Python) and returns its list as JSON.
func (b *Bridge) RunLookup(ctx context.Context, l Lookup) ([]byte, error) {
	head, err := json.Marshal(map[string]any{"op": "lookup", "name": l.Name, "file": l.File, "basedir": l.BaseDir, "roots": l.Roots})
	if err != nil {
		return nil, err
	}
	req := fmt.Sprintf(`%s, "terms": %s, "kwargs": %s, "variables": %s}`, head[:len(head)-1], l.Terms, l.Kwargs, l.Variables)
	if !json.Valid([]byte(req)) {
		return nil, errors.New("pybridge: a lookup's arguments are not JSON")
	}
	a, err := b.request(ctx, []byte(req))
	if err != nil {
		return nil, err
	}
	return a.OK, nil
}

// Action is one action plugin's run: by its file (a playbook's or role's
// action_plugins/NAME.py), or, with File empty, by its fully qualified
// name through ansible-core's plugin loader, the collections found in
// Roots. Args and Variables are JSON.
type Action struct {
	Name, File, BaseDir string
	Roots               []string
	Args, Variables     string
	Check, Diff         bool
	Verbosity           int
}

// RunAction runs an action plugin (which needs ansible-core in the
// bridge's Python) and returns its result as JSON; serve carries out the
// commands and file transfers it asks for on the host.
func (b *Bridge) RunAction(ctx context.Context, a Action, serve RPC) ([]byte, error) {
	head, err := json.Marshal(map[string]any{"op": "action", "name": a.Name, "file": a.File, "basedir": a.BaseDir,
		"roots": a.Roots, "check": a.Check, "diff": a.Diff, "verbosity": a.Verbosity})
	if err != nil {
		return nil, err
	}
	req := fmt.Sprintf(`%s, "args": %s, "variables": %s}`, head[:len(head)-1], a.Args, a.Variables)
	if !json.Valid([]byte(req)) {
		return nil, errors.New("pybridge: an action's arguments are not JSON")
	}
	ans, err := b.exchange(ctx, []byte(req), serve)
	if err != nil {
		return nil, err
	}
	return ans.OK, nil
}

// readLine reads one line of at most max bytes.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, isPrefix, err := r.ReadLine()
		if err != nil {
			return nil, err
		}
		line = append(line, chunk...)
		if len(line) > max {
			return nil, fmt.Errorf("an answer of more than %d bytes", max)
		}
		if !isPrefix {
			return line, nil
		}
	}
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := l.max - len(l.buf); room > 0 {
		l.buf = append(l.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.buf)
}

func tail(s string) string {
	if s == "" {
		return ""
	}
	return ": " + truncate(s)
}

func truncate(s string) string {
	if len(s) > 2000 {
		return s[len(s)-2000:]
	}
	return s
}
