package ssh

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

// countingLib is a Lib piece that, besides its function, appends a line
// to file each time a shell evaluates it: how often it was sent.
func countingLib(file, name string) string {
	return "echo x >>" + transport.Quote(file) + "\n" + name + "() { echo \"" + name + "-$1\"; }\n"
}

func evaluations(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Count(string(b), "x\n")
}

// TestLibDefinedOncePerShell: the persistent shell defines a Lib piece
// with the first Run that needs it, and the Runs after it send only
// their script; a new shell (after the old one was discarded) defines
// it again; a Run under become gets it in its own script.
func TestLibDefinedOncePerShell(t *testing.T) {
	f := newFixture(t, sshtest.Options{})
	c := f.connect(t)
	file := filepath.Join(t.TempDir(), "evals")
	lib := []string{countingLib(file, "_tl_a")}
	for i := range 3 {
		res := mustRun(t, c, transport.Cmd{Lib: lib, Script: "_tl_a " + string(rune('0'+i))})
		if want := "_tl_a-" + string(rune('0'+i)) + "\n"; string(res.Stdout) != want {
			t.Fatalf("run %d: %q, want %q (stderr %q)", i, res.Stdout, want, res.Stderr)
		}
	}
	if n := evaluations(t, file); n != 1 {
		t.Fatalf("the piece was evaluated %d times in 3 Runs on one shell, want 1", n)
	}
	// Discard the shell: the next one needs the piece again.
	sh := <-c.idle
	c.discard(sh)
	if res := mustRun(t, c, transport.Cmd{Lib: lib, Script: "_tl_a again"}); string(res.Stdout) != "_tl_a-again\n" {
		t.Fatalf("on a new shell: %q (stderr %q)", res.Stdout, res.Stderr)
	}
	if n := evaluations(t, file); n != 2 {
		t.Fatalf("the piece was evaluated %d times after a new shell, want 2", n)
	}
}

// TestRunAheadLibBeforeTheGate: a queued script's Lib is defined even
// when its gate skips it (the script before it failed), so a later Run
// that relies on the shell having it finds it.
func TestRunAheadLibBeforeTheGate(t *testing.T) {
	f := newFixture(t, sshtest.Options{})
	c := f.connect(t)
	mustRun(t, c, transport.Cmd{Script: "true"}) // starts the shell
	file := filepath.Join(t.TempDir(), "evals")
	lib := []string{countingLib(file, "_tl_b")}
	res, pend := runAhead(t, c, transport.Cmd{Script: "exit 3"},
		transport.Cmd{Lib: lib, Script: "_tl_b skipped"})
	if res.ExitCode != 3 {
		t.Fatalf("first: %+v", res)
	}
	if _, ran := wait(t, pend[0]); ran {
		t.Fatal("the queued script ran after a failure")
	}
	if res := mustRun(t, c, transport.Cmd{Lib: lib, Script: "_tl_b later"}); string(res.Stdout) != "_tl_b-later\n" {
		t.Fatalf("later: %q (stderr %q)", res.Stdout, res.Stderr)
	}
	if n := evaluations(t, file); n != 1 {
		t.Fatalf("the piece was evaluated %d times, want 1", n)
	}
}
