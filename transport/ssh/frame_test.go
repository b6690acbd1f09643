package ssh

import (
	"bytes"
	"math/rand/v2"
	"os/exec"
	"testing"
)

// TestFrameStdinRoundTrip feeds printf-escaped data through the local sh
// exactly as a frame does, for every byte value in every position and for
// chunks that start with bytes printf could misread (a dash, a percent).
func TestFrameStdinRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := [][]byte{{}, []byte("-n"), []byte("--"), []byte("%d%s%%"), []byte("\\c\\0\\n"), []byte("\x00\x001")}
	for range 6 {
		b := make([]byte, printfChunk*3+rng.IntN(1000))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		b[printfChunk] = '-'
		inputs = append(inputs, b)
	}
	inputs = append(inputs, []byte("text\n"), []byte("a\n__B_IN\nb\n"), []byte("é 'q' \"d\" $x `y` \\\n\n"))
	for _, in := range inputs {
		frame := buildFrame("__B_", "cat", in)
		if hd := heredocFrame("__B_", "cat", in); hd != nil {
			frame = append(frame, hd...) // the same input twice
			in = append(append([]byte{}, in...), in...)
		} else if bytes.IndexByte(in, 0) < 0 && len(in) > 0 && in[len(in)-1] == '\n' && !bytes.Contains(in, []byte("__B_IN")) {
			t.Fatalf("%q should go as a here-document", in)
		}
		script := "__tender_pre() { :; }\n__tender_post() { :; }\n__tender_o=/dev/stdout __tender_e=/dev/null\n" + string(frame)
		cmd := exec.Command("/bin/sh")
		cmd.Stdin = bytes.NewReader([]byte(script))
		out, err := cmd.Output()
		if err != nil || !bytes.Equal(out, in) {
			t.Fatalf("%d bytes came back as %d (%v)", len(in), len(out), err)
		}
	}
}

// A subshell frame runs the command with /dev/null for stdin (it never
// reads the frames that follow) and in its own subshell: its exit, cd and
// variables leave the persistent shell as they were.
func TestSubshellFrame(t *testing.T) {
	frame := subshellFrame("__B_", "( eval 'cat; cd /; x=changed; exit 3' )")
	script := "__tender_pre() { :; }\n__tender_post() { echo \"rc=$2\"; }\n__tender_o=/dev/stdout __tender_e=/dev/null\nx=kept\n" +
		string(frame) + "echo \"$x $(pwd)\"\n" + "not for cat\n"
	cmd := exec.Command("/bin/sh")
	cmd.Dir = t.TempDir()
	cmd.Stdin = bytes.NewReader([]byte(script))
	out, _ := cmd.Output()
	if want := "rc=3\nkept " + cmd.Dir + "\n"; string(out) != want {
		t.Fatalf("got %q, want %q", out, want)
	}
}
