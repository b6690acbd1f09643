package pybridge

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// python3 is the test's Python, or a skip.
func python3(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("needs python3")
	}
	return py
}

func writePlugin(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "p.py")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBridge loads filter files (a broken one reported, not fatal),
// calls a filter with JSON values, tagged unsafe text (which stays
// unsafe as long as Python keeps the object) and a mapping with keys that
// are not text, and turns a plugin's exception into a
// PluginError.
func TestBridge(t *testing.T) {
	b := New(python3(t))
	defer b.Close()
	good := writePlugin(t, `
def tag(x, suffix='!'):
    return [x, x + suffix, {1: 'one'}]
def fail(x):
    raise ValueError('no %s' % x)
class FilterModule(object):
    def filters(self):
        return {'tag': tag, 'fail': fail}
`)
	bad := writePlugin(t, "import no_such_module_here\n")
	ctx := context.Background()
	names, errs, err := b.Names(ctx, "filter", []File{{good, ""}, {bad, "ns.coll."}})
	if err != nil || strings.Join(names, ",") != "fail,tag" || len(errs) != 1 || !strings.Contains(errs[0], "ModuleNotFoundError") {
		t.Fatalf("Names: %v %v %v", names, errs, err)
	}
	out, err := b.Call(ctx, "filter", "tag", `{"__tender_unsafe__": "{{ x }}"}`, `[]`, `{"suffix": "?"}`)
	if err != nil || string(out) != `[{"__tender_unsafe__": "{{ x }}"}, "{{ x }}?", {"__tender_pairs__": [[1, "one"]]}]` {
		t.Errorf("Call: %s %v", out, err)
	}
	_, err = b.Call(ctx, "filter", "fail", `"it"`, `[]`, `{}`)
	var pe *PluginError
	if !errors.As(err, &pe) || pe.Type != "ValueError" || pe.Msg != "no it" {
		t.Errorf("an exception: %v", err)
	}
}

// TestBridgeBounded: a call past the timeout, or cancelled, kills the
// process, and the next call starts another.
func TestBridgeBounded(t *testing.T) {
	b := New(python3(t))
	defer b.Close()
	// Only the slow calls get the short bound: starting the interpreter
	// and loading the plugin (Names) can take over a second on a loaded
	// machine, and that is not what this test measures.
	short := func() { b.Timeout = time.Second }
	long := func() { b.Timeout = time.Minute }
	p := writePlugin(t, `
import time
class FilterModule(object):
    def filters(self):
        return {'slow': lambda x: time.sleep(x) or x}
`)
	ctx := context.Background()
	if _, _, err := b.Names(ctx, "filter", []File{{p, ""}}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	short()
	if _, err := b.Call(ctx, "filter", "slow", "30", "[]", "{}"); err == nil || !strings.Contains(err.Error(), "ran longer than 1s") {
		t.Errorf("a slow call: %v", err)
	}
	cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	long()
	if _, _, err := b.Names(ctx, "filter", []File{{p, ""}}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Call(cctx, "filter", "slow", "30", "[]", "{}"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a cancelled call: %v", err)
	}
	if time.Since(start) > 10*time.Second {
		t.Errorf("bounded calls took %v", time.Since(start))
	}
	if _, _, err := b.Names(ctx, "filter", []File{{p, ""}}); err != nil {
		t.Fatal(err)
	}
	if out, err := b.Call(ctx, "filter", "slow", "0", "[]", "{}"); err != nil || string(out) != "0" {
		t.Errorf("after a restart: %s %v", out, err)
	}
}
