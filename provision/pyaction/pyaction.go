// Package pyaction runs the content's action plugins (action_plugins/,
// collections' plugins/action) through the Python bridge
// (internal/pybridge): ansible-core's own loaders build the plugin, its
// Task and PlayContext, and it runs on a connection whose commands and
// file transfers the bridge hands back to tender, which carries them out
// on the task's connection (its become applied). It needs ansible-core on
// the controller. Give Runner to provision.Runner.ActionPlugins.
package pyaction

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tender-sh/tender/internal/collection"
	"github.com/tender-sh/tender/internal/pybridge"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/transport"
)

// Runner runs action plugins, each host's in a bridge of its own while it
// runs: a pool of at most Size (default 4) Python processes, started as
// needed and kept for the run. Allow, when set, is asked first (a
// sandbox's CheckLocal: the plugin is code on the controller). Close
// stops the processes.
type Runner struct {
	Size  int
	Allow func() error

	once sync.Once
	pool chan *pybridge.Bridge
	mu   sync.Mutex
	all  []*pybridge.Bridge
}

// acquire takes a bridge from the pool, waiting for one when Size run.
func (r *Runner) acquire(ctx context.Context) (*pybridge.Bridge, error) {
	r.once.Do(func() {
		n := r.Size
		if n <= 0 {
			n = 4
		}
		r.pool = make(chan *pybridge.Bridge, n)
		for range n {
			r.pool <- nil
		}
	})
	select {
	case b := <-r.pool:
		if b == nil {
			b = pybridge.New("")
			r.mu.Lock()
			r.all = append(r.all, b)
			r.mu.Unlock()
		}
		return b, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Close stops the bridges the runner started.
func (r *Runner) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range r.all {
		_ = b.Close()
	}
	r.all = nil
	return nil
}

var _ provision.ActionPluginRunner = (*Runner)(nil)

// maxTransfer bounds a file the plugin moves between the controller and
// the host.
const maxTransfer = 1 << 30

// RunActionPlugin runs one host's action plugin and returns its result.
func (r *Runner) RunActionPlugin(ctx context.Context, c provision.ActionPluginCall) (map[string]any, error) {
	if r.Allow != nil {
		if err := r.Allow(); err != nil {
			return nil, fmt.Errorf("the action plugin %s is Python that runs on the controller: %w", c.Action, err)
		}
	}
	a := pybridge.Action{Name: c.Action, File: c.File, BaseDir: c.BaseDir, Roots: c.CollectionRoots,
		Check: c.Check, Diff: c.Diff, Verbosity: c.Verbosity}
	if coll := collection.Of(c.File); coll != "" {
		// A collection's plugin is loaded by its name, by ansible-core's
		// collection loader, so that its imports resolve.
		a.Name, a.File = coll+"."+strings.TrimSuffix(filepath.Base(c.File), ".py"), ""
	}
	var err error
	if a.Args, err = expr.ToBridge(c.Args); err != nil {
		return nil, err
	}
	if a.Variables, err = expr.ToBridge(c.Vars); err != nil {
		return nil, err
	}
	b, err := r.acquire(ctx)
	if err != nil {
		return nil, err
	}
	out, err := b.RunAction(ctx, a, func(ctx context.Context, req []byte) ([]byte, error) {
		return serve(ctx, c.Conn, req)
	})
	r.pool <- b
	var pe *pybridge.PluginError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("the action plugin %s failed: %s: %s", c.Action, pe.Type, pe.Msg)
	}
	if err != nil {
		return nil, err
	}
	v, err := expr.FromBridge(out)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the action plugin %s returned %s, not a dict", c.Action, expr.Str(v))
	}
	return m, nil
}

// rpcRequest is what a running plugin asks of tender.
type rpcRequest struct {
	RPC      string `json:"rpc"`
	Cmd      string `json:"cmd"`
	Stdin    string `json:"stdin"`
	Sudoable bool   `json:"sudoable"`
	Src      string `json:"src"`
	Dst      string `json:"dst"`
}

// serve carries out one request on conn: run a command (the plugin's
// connection's exec_command), put a controller file on the host or fetch
// one from it.
func serve(ctx context.Context, conn transport.Conn, line []byte) ([]byte, error) {
	var req rpcRequest
	if err := json.Unmarshal(line, &req); err != nil {
		return nil, err
	}
	switch req.RPC {
	case "exec":
		stdin, err := base64.StdEncoding.DecodeString(req.Stdin)
		if err != nil {
			return nil, err
		}
		res, err := conn.Run(ctx, transport.Cmd{Script: req.Cmd, Stdin: bytes.NewReader(stdin)})
		if err != nil {
			return nil, err
		}
		return json.Marshal(map[string]any{"rc": res.ExitCode, "stdout": base64.StdEncoding.EncodeToString(res.Stdout),
			"stderr": base64.StdEncoding.EncodeToString(res.Stderr)})
	case "put":
		f, err := os.Open(req.Src)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if st, err := f.Stat(); err != nil || st.Size() > maxTransfer {
			return nil, fmt.Errorf("put %s: not a file of at most %d bytes", req.Src, maxTransfer)
		}
		if err := conn.Put(ctx, req.Dst, f, 0o600); err != nil {
			return nil, err
		}
		return []byte(`{"ok": true}`), nil
	case "fetch":
		f, err := os.OpenFile(req.Dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			return nil, err
		}
		err = conn.Get(ctx, req.Src, &limitWriter{w: f, left: maxTransfer})
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, err
		}
		return []byte(`{"ok": true}`), nil
	}
	return nil, fmt.Errorf("unknown request %q", req.RPC)
}

// limitWriter fails past left bytes.
type limitWriter struct {
	w    *os.File
	left int64
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > l.left {
		return 0, fmt.Errorf("a fetched file of more than %d bytes", maxTransfer)
	}
	l.left -= int64(len(p))
	return l.w.Write(p)
}
