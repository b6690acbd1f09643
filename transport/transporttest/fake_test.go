package transporttest

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/transport"
)

func connect(t *testing.T, f *Fake, target transport.Target) transport.Conn {
	t.Helper()
	c, err := f.Connect(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestFakeConformance(t *testing.T) {
	f := NewFake(t)
	Run(t, Suite{Open: func(t *testing.T) transport.Conn {
		c, err := f.Connect(context.Background(), transport.Target{Name: "fake1"})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}})
	if n := f.Host("fake1").RoundTrips(); n < 30 {
		t.Fatalf("the suite made only %d round trips to the fake", n)
	}
}

// TestFakeBecomeConformance: through a become view, Put and Get go
// through scripts (the Shell handler runs them as the same user).
func TestFakeBecomeConformance(t *testing.T) {
	f := NewFake(t)
	Run(t, Suite{Open: func(t *testing.T) transport.Conn {
		c := connect(t, f, transport.Target{Name: "fake1"})
		return transport.WithBecome(c, &transport.Become{User: "app"})
	}})
	h := f.Host("fake1")
	if h.Count(OpPut, OpGet) != 0 {
		t.Fatalf("a become view must not use Put or Get: %d calls", h.Count(OpPut, OpGet))
	}
	for _, c := range h.Calls() {
		if c.Op == OpRun && (c.Become == nil || c.Become.User != "app") {
			t.Fatalf("run %d was not recorded with become app: %+v", c.Seq, c.Become)
		}
	}
}

func TestFakeRecordsCalls(t *testing.T) {
	f := NewFake(t)
	h := f.Host("web1")
	c := connect(t, f, transport.Target{Name: "web1", User: "deploy", Password: "login-secret"})
	ctx := context.Background()
	res, err := c.Run(ctx, transport.Cmd{Script: `printf '%s:' "$X"; cat`, Env: map[string]string{"X": "y"},
		Stdin: strings.NewReader("in")})
	if err != nil || string(res.Stdout) != "y:in" {
		t.Fatalf("Run: %q, %v", res.Stdout, err)
	}
	dst := h.Root() + "/f"
	if err := c.Put(ctx, dst, strings.NewReader("data"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := c.Get(ctx, h.Root()+"/missing", &bytes.Buffer{}); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Get of a missing file: %v", err)
	}
	c.Close()
	calls := h.Calls()
	var ops []string
	for _, cl := range calls {
		ops = append(ops, string(cl.Op))
	}
	if got := strings.Join(ops, " "); got != "connect run put get close" {
		t.Fatalf("calls %q", got)
	}
	if calls[0].Target.User != "deploy" || calls[0].Target.Password != "" {
		t.Errorf("connect recorded %+v (the password must not be kept)", calls[0].Target)
	}
	if cl := calls[1]; cl.Trip != 1 || cl.Env["X"] != "y" || string(cl.Stdin) != "in" || !strings.Contains(cl.Script, "cat") {
		t.Errorf("run recorded %+v", cl)
	}
	if cl := calls[2]; cl.Trip != 2 || cl.Path != dst || cl.Mode != 0o600 || string(cl.Data) != "data" || cl.Err != nil {
		t.Errorf("put recorded %+v", cl)
	}
	if cl := calls[3]; !errors.Is(cl.Err, fs.ErrNotExist) {
		t.Errorf("get recorded error %v", cl.Err)
	}
	if h.RoundTrips() != 3 || h.Count(OpRun) != 1 || len(h.Scripts()) != 1 {
		t.Errorf("round trips %d, runs %d", h.RoundTrips(), h.Count(OpRun))
	}
	if fl, ok := h.File(dst); !ok || fl.Owner != "deploy" || fl.Mode != 0o600 {
		t.Errorf("stored file %+v, %v", fl, ok)
	}
}

func TestFakeFilesAndScriptsShareTheStore(t *testing.T) {
	f := NewFake(t)
	h := f.Host("h")
	c := connect(t, f, transport.Target{Name: "h"})
	ctx := context.Background()
	seed := h.Root() + "/etc/app/conf"
	if err := h.WriteFile(seed, []byte("v=1\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	res, err := c.Run(ctx, transport.Cmd{Script: `cat etc/app/conf; stat -c %a etc/app/conf; echo made > etc/app/new; chmod 700 etc/app/new; rm etc/app/conf`})
	if err != nil || string(res.Stdout) != "v=1\n640\n" {
		t.Fatalf("the script did not see the seeded file: %q %q %v", res.Stdout, res.Stderr, err)
	}
	if _, ok := h.File(seed); ok {
		t.Error("a file the script removed is still in the store")
	}
	if fl, ok := h.File(h.Root() + "/etc/app/new"); !ok || string(fl.Data) != "made\n" || fl.Mode != 0o700 {
		t.Errorf("the script's file in the store: %+v %v", fl, ok)
	}
	// Outside Root files live in memory only; their directory must exist.
	if err := c.Put(ctx, "/opt/tender-fake/x", strings.NewReader("x"), 0o644); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Put into a missing directory: %v", err)
	}
	if err := h.WriteFile("/opt/tender-fake/seed", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(ctx, "/opt/tender-fake/x", strings.NewReader("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := c.Get(ctx, "/opt/tender-fake/x", &got); err != nil || got.String() != "x" {
		t.Fatalf("Get from memory: %q %v", got.String(), err)
	}
	if d, ok := h.File("/opt/tender-fake"); !ok || !d.Mode.IsDir() {
		t.Errorf("WriteFile did not make the directory: %+v", d)
	}
}

func TestFakeDownAfter(t *testing.T) {
	f := NewFake(t)
	h := f.Host("h")
	h.SetHandler(func(context.Context, *Host, transport.Cmd) (transport.Result, error) {
		return transport.Result{Stdout: []byte("ok")}, nil
	})
	h.SetFaults(Faults{DownAfter: 2})
	c := connect(t, f, transport.Target{Name: "h"})
	ctx := context.Background()
	for i := 1; i <= 4; i++ {
		_, err := c.Run(ctx, transport.Cmd{Script: "true"})
		if down := errors.Is(err, transport.ErrUnreachable); down != (i > 2) {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if _, err := f.Connect(ctx, transport.Target{Name: "h"}); !errors.Is(err, transport.ErrUnreachable) {
		t.Fatalf("Connect to a down host: %v", err)
	}
	h.SetFaults(Faults{})
	h.SetDown(false)
	if _, err := c.Run(ctx, transport.Cmd{Script: "true"}); err != nil {
		t.Fatalf("a host brought back: %v", err)
	}
}

func TestFakeFailOneCall(t *testing.T) {
	f := NewFake(t)
	h := f.Host("h")
	boom := errors.New("boom")
	h.SetFaults(Faults{Fail: func(c Call) error {
		switch {
		case c.Trip == 2:
			return ErrDown
		case c.Op == OpPut:
			return boom
		}
		return nil
	}})
	c := connect(t, f, transport.Target{Name: "h"})
	ctx := context.Background()
	errs := []error{}
	for range 3 {
		_, err := c.Run(ctx, transport.Cmd{Script: "true"})
		errs = append(errs, err)
	}
	if errs[0] != nil || !errors.Is(errs[1], transport.ErrUnreachable) || errs[2] != nil {
		t.Fatalf("errors %v", errs)
	}
	if err := c.Put(ctx, h.Root()+"/f", strings.NewReader("x"), 0o644); err != boom {
		t.Fatalf("Put: %v", err)
	}
	if _, ok := h.File(h.Root() + "/f"); ok {
		t.Fatal("a failed Put stored the file")
	}
}

func TestFakeConnectErrAndLatency(t *testing.T) {
	f := NewFake(t)
	f.Host("refuses").SetFaults(Faults{ConnectErr: errors.New("connection refused")})
	_, err := f.Connect(context.Background(), transport.Target{Name: "refuses"})
	if !errors.Is(err, transport.ErrUnreachable) || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("Connect: %v", err)
	}
	slow := f.Host("slow")
	slow.SetHandler(func(context.Context, *Host, transport.Cmd) (transport.Result, error) { return transport.Result{}, nil })
	slow.SetFaults(Faults{Latency: 100 * time.Millisecond})
	c := connect(t, f, transport.Target{Name: "slow"})
	start := time.Now()
	if _, err := c.Run(context.Background(), transport.Cmd{Script: "true"}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Fatalf("a run with 100ms latency took %v", d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := c.Run(ctx, transport.Cmd{Script: "true"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a deadline shorter than the latency: %v", err)
	}
}

// TestFakeHandlerFromMemory: a handler that never runs a shell answers
// from the host's store.
func TestFakeHandlerFromMemory(t *testing.T) {
	f := NewFake(t)
	h := f.Host("h")
	h.SetHandler(func(_ context.Context, h *Host, cmd transport.Cmd) (transport.Result, error) {
		name, ok := strings.CutPrefix(cmd.Script, "cat ")
		if !ok {
			return transport.Result{ExitCode: 127}, nil
		}
		fl, ok := h.File(name)
		if !ok {
			return transport.Result{ExitCode: 1, Stderr: []byte("no such file\n")}, nil
		}
		return transport.Result{Stdout: fl.Data}, nil
	})
	if err := h.WriteFile("/etc/motd", []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := connect(t, f, transport.Target{Name: "h"})
	res, err := c.Run(context.Background(), transport.Cmd{Script: "cat /etc/motd"})
	if err != nil || string(res.Stdout) != "hi\n" {
		t.Fatalf("%q %v", res.Stdout, err)
	}
}
