package transporttest

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/transport"
)

// testStream checks Streamer.Stream on a Conn that has it: the script's
// output arrives while it runs (it waits for an answer to what it
// printed), its input is passed on as written, the environment is
// exported, the exit status is returned, and Stream returns without
// waiting for the end of stdin. A Conn without it (or a view of one)
// says so with ErrNoStream, and the test is skipped.
func testStream(t *testing.T, s Suite) {
	c := open(t, s)
	_, err := transport.Stream(context.Background(), c, transport.Cmd{Script: "true"}, io.Discard)
	if errors.Is(err, transport.ErrNoStream) {
		t.Skip("the transport does not stream")
	}
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	inR, inW := io.Pipe()
	defer inW.Close()
	outR, outW := io.Pipe()
	done := streamIn(ctx, c, transport.Cmd{
		Script: `printf '%s?\n' "$Q"; IFS= read -r a; printf 'got %s\n' "$a"; IFS= read -r b; printf 'then %s\n' "$b"; echo err >&2; exit 4`,
		Env:    map[string]string{"Q": "name"},
		Stdin:  inR,
	}, outW)
	lines := bufio.NewReader(outR)
	expect := func(want string) {
		t.Helper()
		got, err := lines.ReadString('\n')
		if err != nil || got != want {
			t.Fatalf("read %q (%v), want %q", got, err, want)
		}
	}
	expect("name?\n")
	if _, err := io.WriteString(inW, "bob\n"); err != nil {
		t.Fatal(err)
	}
	expect("got bob\n")
	if _, err := io.WriteString(inW, "alice\n"); err != nil {
		t.Fatal(err)
	}
	expect("then alice\n")
	if rest, _ := io.ReadAll(lines); len(rest) != 0 {
		t.Fatalf("more output: %q", rest)
	}
	r := <-done
	if r.err != nil || r.res.ExitCode != 4 || len(r.res.Stdout) != 0 || strings.TrimSpace(string(r.res.Stderr)) != "err" {
		t.Fatalf("Stream: %+v %v", r.res, r.err)
	}
	if res := run(t, c, transport.Cmd{Script: "echo still-usable"}); string(res.Stdout) != "still-usable\n" {
		t.Fatalf("connection unusable after Stream: %q", res.Stdout)
	}
	streamStderr(t, ctx, c)
}

// streamStderr: with Cmd.LiveStderr, a script's stderr reaches it as it
// is written (the first line before the script may go on), and
// Result.Stderr still holds it all.
func streamStderr(t *testing.T, ctx context.Context, c transport.Conn) {
	inR, inW := io.Pipe()
	defer inW.Close()
	errR, errW := io.Pipe()
	done := streamIn(ctx, c, transport.Cmd{Script: `echo e1 >&2; IFS= read -r a; echo "e-$a" >&2; echo out`, Stdin: inR, LiveStderr: errW}, io.Discard)
	lines := bufio.NewReader(errR)
	if got, err := lines.ReadString('\n'); got != "e1\n" || err != nil {
		t.Fatalf("live stderr %q (%v), want e1", got, err)
	}
	io.WriteString(inW, "x\n")
	if got, err := lines.ReadString('\n'); got != "e-x\n" || err != nil {
		t.Fatalf("live stderr %q (%v), want e-x", got, err)
	}
	io.ReadAll(lines)
	r := <-done
	if r.err != nil || string(r.res.Stderr) != "e1\ne-x\n" {
		t.Fatalf("Stream with LiveStderr: %+v %v", r.res, r.err)
	}
}

// streamRet is what a Stream returned.
type streamRet struct {
	res transport.Result
	err error
}

// streamIn runs cmd with Stream in the background, closes out (and the
// command's LiveStderr) when it returns, and delivers what it returned.
func streamIn(ctx context.Context, c transport.Conn, cmd transport.Cmd, out io.Writer) <-chan streamRet {
	done := make(chan streamRet, 1)
	go func() {
		res, err := transport.Stream(ctx, c, cmd, out)
		if w, ok := out.(io.Closer); ok {
			w.Close()
		}
		if w, ok := cmd.LiveStderr.(io.Closer); ok {
			w.Close()
		}
		done <- streamRet{res, err}
	}()
	return done
}
