package agents_test

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/transport"
)

func newCaller(t *testing.T) *agents.Caller {
	t.Helper()
	c, err := agents.NewCaller(agents.CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var here = provision.Target{Name: "here", Connection: "local"}

// Call runs one module and gives its result; its arguments are never
// templated; a second run of a changing module reports no change.
func TestCallRunsOneModule(t *testing.T) {
	ctx := context.Background()
	c := newCaller(t)
	res, err := c.Call(ctx, here, "command", map[string]any{"argv": []any{"echo", "{{ 6 * 7 }}", "a b"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Data["stdout"] != "{{ 6 * 7 }} a b" || res.Status != provision.StatusChanged || !res.Changed() || res.Data["rc"] != 0 {
		t.Fatalf("%+v", res)
	}
	dest := filepath.Join(t.TempDir(), "motd")
	for i, want := range []provision.Status{provision.StatusChanged, provision.StatusOK} {
		res, err := c.Call(ctx, here, "copy", map[string]any{"content": "hello {{ x }}\n", "dest": dest, "mode": "0640"})
		if err != nil || res.Status != want {
			t.Fatalf("copy %d: %+v %v", i, res, err)
		}
	}
	if b, _ := os.ReadFile(dest); string(b) != "hello {{ x }}\n" {
		t.Fatalf("%q", b)
	}
}

// A failing module, an unknown one, a refused argument and an
// unreachable target are errors that say which.
func TestCallErrors(t *testing.T) {
	ctx := context.Background()
	c := newCaller(t)
	res, err := c.Call(ctx, here, "command", map[string]any{"cmd": "false"})
	var ce *agents.CallError
	if !errors.As(err, &ce) || ce.Code != agents.CodeTaskFailed || res == nil || res.Status != provision.StatusFailed || res.Data["rc"] != 1 {
		t.Fatalf("failing command: %+v %v", res, err)
	}
	if _, err := c.Call(ctx, here, "no_such_module", nil); err == nil || !strings.Contains(err.Error(), "no_such_module") {
		t.Fatalf("unknown module: %v", err)
	}
	if _, err := c.Call(ctx, here, "ping", map[string]any{"bogus": 1}); err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Fatalf("bad argument: %v", err)
	}
	if _, err := c.Call(ctx, here, "ping", map[string]any{"data": struct{}{}}); err == nil || !strings.Contains(err.Error(), "cannot be a module argument") {
		t.Fatalf("bad value: %v", err)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	_, err = c.Call(ctx, provision.Target{Name: "gone", Address: "127.0.0.1", Port: port}, "ping", nil)
	if !errors.As(err, &ce) || ce.Code != agents.CodeUnreachable || !errors.Is(err, transport.ErrUnreachable) {
		t.Fatalf("unreachable: %v", err)
	}
	if _, err := c.Call(ctx, provision.Target{Name: "x", Vars: map[string]any{"ansible_usr": "a"}}, "ping", nil); err == nil || !strings.Contains(err.Error(), "ansible_usr") {
		t.Fatalf("misspelt variable: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Call(cctx, here, "ping", nil); !errors.As(err, &ce) || ce.Code != agents.CodeCancelled {
		t.Fatalf("cancelled: %v", err)
	}
}

// Put and Get move files whole; Dial opens a connection from the target.
func TestCallPutGetDial(t *testing.T) {
	ctx := context.Background()
	c := newCaller(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	os.WriteFile(src, []byte("payload"), 0o600)
	if res, err := c.Put(ctx, here, src, filepath.Join(dir, "put"), "0604"); err != nil || !res.Changed() {
		t.Fatalf("put: %+v %v", res, err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "put")); err != nil || fi.Mode().Perm() != 0o604 {
		t.Fatalf("put: %v %v", fi, err)
	}
	if res, err := c.Put(ctx, here, src, filepath.Join(dir, "put"), "0604"); err != nil || res.Changed() {
		t.Fatalf("put again: %+v %v", res, err)
	}
	if _, err := c.Get(ctx, here, filepath.Join(dir, "put"), filepath.Join(dir, "got")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "got")); string(b) != "payload" {
		t.Fatalf("got %q", b)
	}
	if _, err := c.Get(ctx, here, filepath.Join(dir, "missing"), filepath.Join(dir, "x")); err == nil {
		t.Fatal("fetching a missing file succeeded")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		conn, err := ln.Accept()
		if err == nil {
			conn.Write([]byte("from the listener"))
			conn.Close()
		}
	}()
	nc, err := c.Dial(ctx, here, "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(nc)
	nc.Close()
	if string(b) != "from the listener" {
		t.Fatalf("dial read %q", b)
	}
}
