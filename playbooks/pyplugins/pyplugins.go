// Package pyplugins runs a playbook's Python filter and test plugins (its
// filter_plugins/ and test_plugins/, its roles', and installed
// collections': playbooks.Playbook.PluginFiles) through a Python bridge
// (internal/pybridge), as the filters and tests tender does not ship:
// give For to provision.Runner.Plugins. Values cross as JSON, text
// marked unsafe staying unsafe both ways. Plugin code runs on the
// controller, so a sandbox refuses it unless its policy allows local
// execution.
package pyplugins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/tender-sh/tender/internal/pybridge"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
)

// Bridge is what runs the plugins (a *pybridge.Bridge).
type Bridge interface {
	Names(ctx context.Context, kind string, files []pybridge.File) (names, errs []string, err error)
	Call(ctx context.Context, kind, name, value, args, kwargs string) ([]byte, error)
	RunLookup(ctx context.Context, l pybridge.Lookup) ([]byte, error)
}

// For returns what Runner.Plugins takes: the plugins of each playbook,
// run by b. allow, when set, is asked before any plugin code runs (a
// sandbox's CheckLocal); warn, when set, hears of the plugin files that
// fail to load.
func For(b Bridge, allow func() error, warn func(string)) func(*playbooks.Playbook) expr.PluginSource {
	return func(pb *playbooks.Playbook) expr.PluginSource {
		return &source{pb: pb, b: b, allow: allow, warn: warn, names: map[string]bool{}, loaded: map[pybridge.File]bool{}}
	}
}

type source struct {
	pb    *playbooks.Playbook
	b     Bridge
	allow func() error
	warn  func(string)

	mu     sync.Mutex
	names  map[string]bool // kind + " " + name of each plugin loaded
	loaded map[pybridge.File]bool
}

// find loads the files that may hold the plugin of kind called name and
// returns the name the bridge knows it by; ok is false when none has it.
func (s *source) find(kind, name string) (string, bool, error) {
	lookup, files := s.pb.PluginFiles(kind, name)
	if len(files) == 0 {
		return "", false, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var fresh []pybridge.File
	for _, f := range files {
		pf := pybridge.File{Path: f.Path, Prefix: f.Prefix}
		if !s.loaded[pf] {
			fresh = append(fresh, pf)
		}
	}
	if len(fresh) > 0 {
		if s.allow != nil {
			if err := s.allow(); err != nil {
				return lookup, true, fmt.Errorf("the %s %s is Python that runs on the controller: %w", kind, name, err)
			}
		}
		names, errs, err := s.b.Names(context.Background(), kind, fresh)
		if err != nil {
			return lookup, true, err
		}
		for _, f := range fresh {
			s.loaded[f] = true
		}
		for _, n := range names {
			s.names[kind+" "+n] = true
		}
		for _, e := range errs {
			if s.warn != nil {
				s.warn("Skipping " + kind + " plugin that failed to load: " + e)
			}
		}
	}
	return lookup, s.names[kind+" "+lookup], nil
}

// Filter is the filter plugin called name, if the content has one.
func (s *source) Filter(name string) (expr.Filter, bool) {
	lookup, ok, err := s.find("filter", name)
	if !ok {
		return nil, false
	}
	return func(env *expr.Env, x any, args []any, kw map[string]any) (any, error) {
		if err != nil {
			return nil, err
		}
		ctx, cancel := doneContext(env)
		defer cancel()
		return s.call(ctx, "filter", lookup, x, args, kw)
	}, true
}

// Test is the test plugin called name, if the content has one.
func (s *source) Test(name string) (expr.Test, bool) {
	lookup, ok, err := s.find("test", name)
	if !ok {
		return nil, false
	}
	return func(x any, args []any, kw map[string]any) (bool, error) {
		if err != nil {
			return false, err
		}
		v, err := s.call(context.Background(), "test", lookup, x, args, kw)
		if err != nil {
			return false, err
		}
		b, _ := v.(bool)
		return b, nil
	}, true
}

// Lookup is the lookup plugin called name, if the content or an
// installed collection has one. It needs ansible-core in the bridge's
// Python (its LookupBase, DataLoader and Templar).
func (s *source) Lookup(name string) (expr.ScopedLookup, bool) {
	lookup, file, roots, ok := s.pb.LookupPlugin(name)
	if !ok {
		return nil, false
	}
	return func(env *expr.Env, vars map[string]any, terms []any, opts map[string]any) ([]any, error) {
		if s.allow != nil {
			if err := s.allow(); err != nil {
				return nil, fmt.Errorf("the lookup %s is Python that runs on the controller: %w", name, err)
			}
		}
		l := pybridge.Lookup{Name: lookup, File: file, Roots: roots, Variables: encodeVars(vars)}
		if env != nil {
			l.BaseDir = env.BaseDir
		}
		if opts == nil {
			opts = map[string]any{}
		}
		var err error
		if l.Terms, err = expr.ToBridge(terms); err != nil {
			return nil, err
		}
		if l.Kwargs, err = expr.ToBridge(opts); err != nil {
			return nil, err
		}
		ctx, cancel := doneContext(env)
		defer cancel()
		out, err := s.b.RunLookup(ctx, l)
		var pe *pybridge.PluginError
		if errors.As(err, &pe) {
			return nil, expr.PluginLookupError(pe.Category, pe.Class, pe.Msg)
		}
		if err != nil {
			return nil, err
		}
		v, err := expr.FromBridge(out)
		if err != nil {
			return nil, err
		}
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("the lookup %s returned %s, not a list", name, expr.Str(v))
		}
		return list, nil
	}, true
}

// encodeVars writes the variables as one JSON object, leaving out those
// JSON cannot hold.
func encodeVars(vars map[string]any) string {
	var b strings.Builder
	b.WriteByte('{')
	n := 0
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		j, err := expr.ToBridge(vars[k])
		if err != nil {
			continue
		}
		if n > 0 {
			b.WriteString(", ")
		}
		n++
		kj, _ := json.Marshal(k)
		b.Write(kj)
		b.WriteString(": ")
		b.WriteString(j)
	}
	b.WriteByte('}')
	return b.String()
}

// call runs one plugin through the bridge.
func (s *source) call(ctx context.Context, kind, name string, x any, args []any, kw map[string]any) (any, error) {
	if args == nil {
		args = []any{}
	}
	if kw == nil {
		kw = map[string]any{}
	}
	var enc [3]string
	for i, v := range []any{x, args, kw} {
		j, err := expr.ToBridge(v)
		if err != nil {
			return nil, err
		}
		enc[i] = j
	}
	out, err := s.b.Call(ctx, kind, name, enc[0], enc[1], enc[2])
	var pe *pybridge.PluginError
	if errors.As(err, &pe) {
		return nil, errors.New(pe.Msg)
	}
	if err != nil {
		return nil, err
	}
	return expr.FromBridge(out)
}

// doneContext is a context cancelled when env's evaluation is (Ctrl-C).
func doneContext(env *expr.Env) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	if env != nil && env.Done != nil {
		go func() {
			select {
			case <-env.Done:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	return ctx, cancel
}
