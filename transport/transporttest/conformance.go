// Package transporttest holds the one conformance suite every transport
// must pass (local, SSH against an in-process server, SSH against the real
// sshd hosts of the e2e fleet), so that the engine can rely on the
// transport contract rather than on one implementation's habits.
package transporttest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tender-sh/tender/transport"
)

// Suite describes the transport under test.
type Suite struct {
	// Open returns a fresh connection; the suite closes it.
	Open func(t *testing.T) transport.Conn
	// Banner returns an address, reachable from the host's side, where a
	// server writes banner first on every connection. When nil, the suite
	// listens on 127.0.0.1 itself (right for transports whose host is this
	// machine).
	Banner func(t *testing.T) (addr, banner string)
}

// Run runs every conformance test as a subtest of t.
func Run(t *testing.T, s Suite) {
	tests := []struct {
		name string
		fn   func(*testing.T, Suite)
	}{
		{"ExitCodeAndOutput", testExitCodeAndOutput},
		{"StdinAndEnv", testStdinAndEnv},
		{"NoStdinMeansEOF", testNoStdin},
		{"Alone", testAlone},
		{"Lib", testLib},
		{"LargeOutput", testLargeOutput},
		{"OutputBounded", testOutputBounded},
		{"ContextCancel", testContextCancel},
		{"Concurrent", testConcurrent},
		{"PutGet", testPutGet},
		{"PutLarge", testPutLarge},
		{"PutFailureLeavesNothing", testPutFailure},
		{"GetMissing", testGetMissing},
		{"Dial", testDial},
		{"ClosedConn", testClosed},
		{"Stream", testStream},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, s) })
	}
}

func open(t *testing.T, s Suite) transport.Conn {
	t.Helper()
	c := s.Open(t)
	t.Cleanup(func() { c.Close() })
	return c
}

func run(t *testing.T, c transport.Conn, cmd transport.Cmd) transport.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := c.Run(ctx, cmd)
	if err != nil {
		t.Fatalf("Run(%q): %v", cmd.Script, err)
	}
	return res
}

// tempDir makes a directory on the host and removes it at the end.
func tempDir(t *testing.T, c transport.Conn) string {
	t.Helper()
	res := run(t, c, transport.Cmd{Script: "mktemp -d"})
	dir := strings.TrimSpace(string(res.Stdout))
	if res.ExitCode != 0 || !strings.HasPrefix(dir, "/") {
		t.Fatalf("mktemp -d: exit %d, %q %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	t.Cleanup(func() {
		_, _ = c.Run(context.Background(), transport.Cmd{Script: "rm -rf " + transport.Quote(dir)})
	})
	return dir
}

func testExitCodeAndOutput(t *testing.T, s Suite) {
	c := open(t, s)
	// Cmd.Direct, Cmd.Lines (with Direct too) and Cmd.LinesUntil change
	// nothing a Run returns, on either side of the line LinesUntil names
	// (binary past it, where Lines promises text).
	for _, cmd := range []transport.Cmd{{}, {Direct: true}, {Lines: true}, {Lines: true, Direct: true}, {LinesUntil: "out"}, {LinesUntil: "v=1"}} {
		want := "v=1\nout\nb\x00\xff\n"
		cmd.Script = "echo v=1; echo out; printf 'b\\000\\377\\n'; echo err >&2; exit 3"
		if cmd.Lines {
			cmd.Script, want = "echo v=1; echo out; echo err >&2; exit 3", "v=1\nout\n"
		}
		res := run(t, c, cmd)
		if res.ExitCode != 3 || string(res.Stdout) != want || string(res.Stderr) != "err\n" {
			t.Fatalf("%+v: got exit %d stdout %q stderr %q", cmd, res.ExitCode, res.Stdout, res.Stderr)
		}
	}
	if res := run(t, c, transport.Cmd{Script: "true"}); res.ExitCode != 0 || len(res.Stdout) != 0 {
		t.Fatalf("true: %+v", res)
	}
	if res := run(t, c, transport.Cmd{Script: "no-such-command-xyz"}); res.ExitCode != 127 {
		t.Fatalf("a missing command must exit 127, got %d", res.ExitCode)
	}
}

func testStdinAndEnv(t *testing.T, s Suite) {
	c := open(t, s)
	odd := `a'b "c" $(id) ; rm -rf / ` + "`x`\nline2"
	res := run(t, c, transport.Cmd{
		Script: `printf '%s|' "$ODD"; cat`,
		Env:    map[string]string{"ODD": odd},
		Stdin:  strings.NewReader("from stdin\n"),
	})
	if want := odd + "|from stdin\n"; string(res.Stdout) != want || res.ExitCode != 0 {
		t.Fatalf("got %q (exit %d), want %q", res.Stdout, res.ExitCode, want)
	}
}

func testNoStdin(t *testing.T, s Suite) {
	c := open(t, s)
	res := run(t, c, transport.Cmd{Script: "wc -c"})
	if strings.TrimSpace(string(res.Stdout)) != "0" {
		t.Fatalf("a script without stdin must read EOF at once, read %q", res.Stdout)
	}
}

// testLib: a script's Lib pieces (Cmd.Lib) are defined before it, on
// every Run and however the transport sends them: the first Run on a
// connection and later ones, with stdin, alone; a function of the Lib
// that exits ends the script; a script that redefines a Lib function
// changes nothing for the next Run; a piece without its last newline is
// refused.
func testLib(t *testing.T, s Suite) {
	lib := []string{
		"_tc_a() { echo \"a-$1\"; }\n",
		"_tc_v='it''s'\n_tc_b() { echo \"b-$_tc_v\"; }\n_tc_main() { echo main; exit 4; }\n",
	}
	c := open(t, s)
	for _, tc := range []struct {
		cmd    transport.Cmd
		stdout string
		exit   int
	}{
		{transport.Cmd{Lib: lib, Script: "_tc_a 1; _tc_b"}, "a-1\nb-its\n", 0},
		{transport.Cmd{Lib: lib, Script: "_tc_a 2; _tc_b", Env: map[string]string{"X": "1"}}, "a-2\nb-its\n", 0},
		{transport.Cmd{Lib: lib[:1], Script: "_tc_a 3; cat", Stdin: strings.NewReader("in\n")}, "a-3\nin\n", 0},
		{transport.Cmd{Lib: lib, Script: "_tc_main; echo never"}, "main\n", 4},
		{transport.Cmd{Lib: lib, Script: "_tc_a() { echo other; }; _tc_a 4"}, "other\n", 0},
		{transport.Cmd{Lib: lib, Script: "_tc_a 5"}, "a-5\n", 0},
		{transport.Cmd{Lib: lib[1:], Script: "_tc_b"}, "b-its\n", 0},
	} {
		res := run(t, c, tc.cmd)
		if res.ExitCode != tc.exit || string(res.Stdout) != tc.stdout {
			t.Errorf("%q: exit %d stdout %q stderr %q, want %d %q", tc.cmd.Script, res.ExitCode, res.Stdout, res.Stderr, tc.exit, tc.stdout)
		}
	}
	res := run(t, open(t, s), transport.Cmd{Lib: lib, Script: "_tc_a 6; _tc_main", Alone: true, Lines: true})
	if res.ExitCode != 4 || string(res.Stdout) != "a-6\nmain\n" {
		t.Errorf("alone: exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if _, err := c.Run(context.Background(), transport.Cmd{Lib: []string{"_tc_c() { :; }"}, Script: "_tc_c"}); err == nil {
		t.Error("a Lib piece without its last newline was not refused")
	}
}

// testAlone: a Run that is the connection's only one (Cmd.Alone) gives
// what any Run gives: output, exit status, environment, end-of-file stdin,
// a script that exits early, and a cancel that returns at once.
func testAlone(t *testing.T, s Suite) {
	for _, tc := range []struct{ script, stdout, stderr string }{
		{`echo out; echo "$ODD" >&2; exit 3`, "out\n", "it's \"odd\"\n"},
		{"wc -c; exit 3; echo never", "0\n", ""},
	} {
		res := run(t, open(t, s), transport.Cmd{Script: tc.script, Env: map[string]string{"ODD": `it's "odd"`}, Alone: true, Lines: true})
		if res.ExitCode != 3 || strings.TrimLeft(string(res.Stdout), " ") != tc.stdout || string(res.Stderr) != tc.stderr {
			t.Errorf("%q: exit %d stdout %q stderr %q", tc.script, res.ExitCode, res.Stdout, res.Stderr)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := open(t, s).Run(ctx, transport.Cmd{Script: "sleep 30", Alone: true}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("an Alone Run past its deadline returned %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("cancel took %v", d)
	}
}

func testLargeOutput(t *testing.T, s Suite) {
	c := open(t, s)
	// 1 MiB on stdout and 64 KiB on stderr at once must not deadlock.
	for _, direct := range []bool{false, true} {
		res := run(t, c, transport.Cmd{Script: "head -c 1048576 /dev/zero; head -c 65536 /dev/zero >&2", Direct: direct})
		if len(res.Stdout) != 1<<20 || len(res.Stderr) != 1<<16 {
			t.Fatalf("direct %v: got %d bytes of stdout and %d of stderr", direct, len(res.Stdout), len(res.Stderr))
		}
	}
}

func testContextCancel(t *testing.T, s Suite) {
	c := open(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Run(ctx, transport.Cmd{Script: "sleep 30"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Run past its deadline returned %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("cancel took %v", d)
	}
	if res := run(t, c, transport.Cmd{Script: "echo still-usable"}); string(res.Stdout) != "still-usable\n" {
		t.Fatalf("connection unusable after a cancelled Run: %q", res.Stdout)
	}
}

func testConcurrent(t *testing.T, s Suite) {
	c := open(t, s)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := c.Run(context.Background(), transport.Cmd{Script: fmt.Sprintf("sleep 0.1; echo %d", i)})
			if err == nil && string(res.Stdout) != fmt.Sprintf("%d\n", i) {
				err = fmt.Errorf("run %d got %q", i, res.Stdout)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func testPutGet(t *testing.T, s Suite) {
	c := open(t, s)
	dir := tempDir(t, c)
	dst := dir + "/file with space"
	ctx := context.Background()
	data := bytes.Repeat([]byte("tender\x00\xff"), 40000)
	for i, mode := range []fs.FileMode{0o640, 0o755} {
		if err := c.Put(ctx, dst, bytes.NewReader(data[i:]), mode); err != nil {
			t.Fatalf("Put: %v", err)
		}
		var got bytes.Buffer
		if err := c.Get(ctx, dst, &got); err != nil {
			t.Fatalf("Get: %v", err)
		}
		if !bytes.Equal(got.Bytes(), data[i:]) {
			t.Fatalf("Get returned %d bytes, want %d identical", got.Len(), len(data[i:]))
		}
		res := run(t, c, transport.Cmd{Script: "stat -c %a " + transport.Quote(dst) + "; ls -A " + transport.Quote(dir) + " | wc -l"})
		if want := fmt.Sprintf("%o\n1\n", mode); string(res.Stdout) != want {
			t.Fatalf("after Put: mode and file count %q, want %q", res.Stdout, want)
		}
	}
}

func testPutLarge(t *testing.T, s Suite) {
	c := open(t, s)
	dir := tempDir(t, c)
	data := make([]byte, 3<<20+17)
	for i := range data {
		data[i] = byte(i*7 + i>>9)
	}
	ctx := context.Background()
	if err := c.Put(ctx, dir+"/big", bytes.NewReader(data), 0o600); err != nil {
		t.Fatalf("Put of %d bytes: %v", len(data), err)
	}
	var got bytes.Buffer
	if err := c.Get(ctx, dir+"/big", &got); err != nil {
		t.Fatalf("Get: %v", err)
	}
	if !bytes.Equal(got.Bytes(), data) {
		t.Fatalf("Get returned %d bytes, want %d identical", got.Len(), len(data))
	}
}

type failingReader struct{ n int }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, errors.New("source broke")
	}
	n := min(len(p), r.n)
	r.n -= n
	return n, nil
}

func testPutFailure(t *testing.T, s Suite) {
	c := open(t, s)
	dir := tempDir(t, c)
	ctx := context.Background()
	dst := dir + "/keep"
	if err := c.Put(ctx, dst, strings.NewReader("original"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(ctx, dst, &failingReader{n: 100000}, 0o644); err == nil {
		t.Fatal("Put from a failing source must fail")
	}
	if err := c.Put(ctx, dir+"/no/such/dir/f", strings.NewReader("x"), 0o644); err == nil {
		t.Fatal("Put into a missing directory must fail")
	}
	res := run(t, c, transport.Cmd{Script: "head -c 100 " + transport.Quote(dst) + "; echo; ls -A " + transport.Quote(dir)})
	if string(res.Stdout) != "original\nkeep\n" {
		t.Fatalf("a failed Put changed the file or left a temporary behind: %q", clip(res.Stdout))
	}
}

func testGetMissing(t *testing.T, s Suite) {
	c := open(t, s)
	dir := tempDir(t, c)
	err := c.Get(context.Background(), dir+"/missing", io.Discard)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Get of a missing file: %v, want fs.ErrNotExist", err)
	}
}

func testDial(t *testing.T, s Suite) {
	c := open(t, s)
	addr, banner := bannerServer(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	nc, err := c.Dial(ctx, "tcp", addr)
	if err != nil {
		t.Fatalf("Dial %s: %v", addr, err)
	}
	defer nc.Close()
	_ = nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	got := make([]byte, len(banner))
	if _, err := io.ReadFull(nc, got); err != nil || string(got) != banner {
		t.Fatalf("read %q, %v; want %q", got, err, banner)
	}
}

func bannerServer(t *testing.T, s Suite) (string, string) {
	if s.Banner != nil {
		return s.Banner(t)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	const banner = "hello from tender\n"
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			_, _ = io.WriteString(nc, banner)
			nc.Close()
		}
	}()
	return ln.Addr().String(), banner
}

func testClosed(t *testing.T, s Suite) {
	c := s.Open(t)
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := c.Run(context.Background(), transport.Cmd{Script: "true"}); err == nil {
		t.Fatal("Run on a closed connection must fail")
	}
}

// clip shortens output for a failure message.
func clip(b []byte) string {
	if len(b) > 200 {
		return fmt.Sprintf("%q... (%d bytes)", b[:200], len(b))
	}
	return string(b)
}

// testOutputBounded: output past Cmd.MaxOutput fails the Run with
// ErrOutputTooLarge, and the connection goes on working.
func testOutputBounded(t *testing.T, s Suite) {
	c := open(t, s)
	for _, script := range []string{"head -c 300000 /dev/zero", "head -c 300000 /dev/zero >&2"} {
		for _, direct := range []bool{false, true} {
			_, err := c.Run(context.Background(), transport.Cmd{Script: script, MaxOutput: 100000, Direct: direct})
			if !errors.Is(err, transport.ErrOutputTooLarge) {
				t.Fatalf("%s (direct %v): err = %v, want ErrOutputTooLarge", script, direct, err)
			}
		}
	}
	res := run(t, c, transport.Cmd{Script: "echo still here", MaxOutput: 100000})
	if strings.TrimSpace(string(res.Stdout)) != "still here" {
		t.Fatalf("after a bounded Run: %q", res.Stdout)
	}
}
