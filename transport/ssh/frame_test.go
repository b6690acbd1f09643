package ssh

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/tender-sh/tender/transport"
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
		frame := buildFrame("__B_", "cat", in, "")
		if hd := heredocFrame("__B_", "cat", in, ""); hd != nil {
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
	frame := subshellFrame("__B_", "( eval 'cat; cd /; x=changed; exit 3' )", "", false, false)
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

// TestPostCopiesLinesWithBuiltins runs the real setup script and frames
// in the local sh and reads their answers as the client does: with
// Cmd.Lines a short stdout comes back byte for byte with no program
// started (PATH leads nowhere), a long one through cat after its first
// 64 lines, and an empty stderr costs nothing either.
func TestPostCopiesLinesWithBuiltins(t *testing.T) {
	long := strings.Repeat("line\n", 70) + "tail"
	cases := []struct {
		out, err string
		builtin  bool // answerable with no program on PATH
	}{
		{"", "", true}, {"a", "", true}, {"a\n", "", true}, {"a\nb", "", true}, {"x\n\n\n", "", true},
		{"  lead \\back\\n\ttab  \n%s%d\n-n\n", "", true}, {"é ü\n", "", true},
		{long, "", false}, {"a\n", "oops\n", false}, {"", "no newline", false},
	}
	for _, argv := range localShells() {
		for _, withPath := range []bool{false, true} {
			postLines(t, argv, withPath, " l", false, cases)
		}
	}
}

// TestDirectAnswerWithBuiltins is TestPostCopiesLinesWithBuiltins for a
// Cmd.Direct script: its stdout, however long, reaches the answer with
// no program started; only a stderr that is not empty needs cat.
func TestDirectAnswerWithBuiltins(t *testing.T) {
	cases := []struct {
		out, err string
		builtin  bool
	}{
		{"", "", true}, {"a", "", true}, {"a\nb", "", true}, {strings.Repeat("line\n", 70) + "tail", "", true},
		{"bin\xffary\n", "", true}, {"a\n", "oops\n", false}, {"", "no newline", false},
	}
	for _, argv := range localShells() {
		for _, withPath := range []bool{false, true} {
			postLines(t, argv, withPath, "", true, cases)
		}
	}
}

// TestPostCopiesLinesUntilWithBuiltins: with Cmd.LinesUntil, the lines
// up to the one named come back with no program started; from that line
// on, cat copies the rest byte for byte, NUL bytes too (which the shell's
// read would drop).
func TestPostCopiesLinesUntilWithBuiltins(t *testing.T) {
	for cmd, want := range map[*transport.Cmd]string{
		{LinesUntil: "tender=run"}: " l tender=run", {LinesUntil: "a b"}: " l 'a b'",
		{Lines: true, LinesUntil: "x"}: " l", {}: "",
	} {
		if got := postArgs(*cmd); got != want {
			t.Errorf("postArgs(%+v) = %q, want %q", *cmd, got, want)
		}
	}
	post := postArgs(transport.Cmd{LinesUntil: "tender=run"})
	cases := []struct {
		format, out string // a printf format, what it prints
		builtin     bool
	}{
		{`tender=creates\n`, "tender=creates\n", true}, {``, "", true}, {`tender=runx\nb\n`, "tender=runx\nb\n", true},
		{`tender=run \n`, "tender=run \n", true}, {`x\ntender=run`, "x\ntender=run", true},
		{`tender=run\n`, "tender=run\n", false}, {`tender=run\nbin\000ary\n\377`, "tender=run\nbin\x00ary\n\xff", false},
		{`a\ntender=run\n\000\001\n`, "a\ntender=run\n\x00\x01\n", false},
	}
	for _, argv := range localShells() {
		for _, withPath := range []bool{false, true} {
			var frames []byte
			var bs, want []string
			for i, c := range cases {
				if !withPath && !c.builtin {
					continue
				}
				b := fmt.Sprintf("__B%d_", i)
				bs, want = append(bs, b), append(want, c.out)
				frames = append(frames, subshellFrame(b, "( printf '"+c.format+"' )", post, false, false)...)
			}
			sh := runFrames(t, argv, withPath, frames)
			for i, b := range bs {
				res, _, err := sh.answer(b, 1<<20)
				if err != nil || string(res.Stdout) != want[i] || len(res.Stderr) != 0 {
					t.Errorf("%s, PATH kept %v, frame %s: stdout %q stderr %q (%v), want %q", argv[0], withPath, b, res.Stdout, res.Stderr, err, want[i])
				}
			}
		}
	}
}

// localShells are the POSIX shells of this machine the shell protocol is
// tried under: sh, and bash and busybox's ash when there.
func localShells() [][]string {
	shells := [][]string{{"/bin/sh"}}
	if p, err := exec.LookPath("bash"); err == nil {
		shells = append(shells, []string{p, "--posix"})
	}
	if p, err := exec.LookPath("busybox"); err == nil {
		shells = append(shells, []string{p, "sh"})
	}
	return shells
}

// postLines is one pass of TestPostCopiesLinesWithBuiltins (of
// TestDirectAnswerWithBuiltins with direct, of
// TestPostCopiesLinesUntilWithBuiltins with post naming a line).
func postLines(t *testing.T, argv []string, withPath bool, post string, direct bool, cases []struct {
	out, err string
	builtin  bool
}) {
	t.Helper()
	var frames []byte
	var bs []string
	for i, c := range cases {
		if !withPath && !c.builtin {
			continue
		}
		b := fmt.Sprintf("__B%d_", i)
		bs = append(bs, b)
		cmd := fmt.Sprintf("( printf %%s %s; printf %%s %s >&2 )", transport.Quote(c.out), transport.Quote(c.err))
		frames = append(frames, subshellFrame(b, cmd, post, direct, false)...)
	}
	sh := runFrames(t, argv, withPath, frames)
	j := 0
	for i, c := range cases {
		if !withPath && !c.builtin {
			continue
		}
		res, _, err := sh.answer(bs[j], 1<<20)
		j++
		if err != nil || string(res.Stdout) != c.out || string(res.Stderr) != c.err || res.ExitCode != 0 {
			t.Errorf("%s, PATH kept %v, case %d: stdout %q stderr %q rc %d (%v), want %q %q", argv[0], withPath, i, res.Stdout, res.Stderr, res.ExitCode, err, c.out, c.err)
		}
	}
}

// runFrames runs the real setup script and then frames in the shell argv
// (with PATH leading nowhere unless withPath), and returns a shell whose
// answers are read from what it printed, past its ready line.
func runFrames(t *testing.T, argv []string, withPath bool, frames []byte) *shell {
	t.Helper()
	var script strings.Builder
	script.WriteString(setupText("READY"))
	if !withPath {
		script.WriteString("PATH=/nonexistent\n")
	}
	script.Write(frames)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = strings.NewReader(script.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sh: %v", err)
	}
	return shellOf(t, out)
}

// shellOf is a shell whose answers are read from out, what the real
// setup script and frames printed, past its ready line.
func shellOf(t *testing.T, out []byte) *shell {
	t.Helper()
	sh := &shell{out: bufio.NewReader(bytes.NewReader(out))}
	if line, err := sh.out.ReadString('\n'); err != nil || !strings.HasPrefix(line, "READY ") {
		t.Fatalf("ready line %q (%v)", line, err)
	}
	return sh
}
