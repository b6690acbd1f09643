package ssh

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tender-sh/tender/transport"
)

// captureCase is a script run by a capture frame and what its answer
// must hold.
type captureCase struct {
	script       string
	out, err     string
	code         int
	needsProgram bool // cat, for a stderr that is not empty
}

// captureCases: stdout comes back byte for byte (trailing newlines, none,
// an empty line, printf's specials), whether the script ends, exits or
// fails; a script that replaces the EXIT trap has its trailing newlines
// made one, as transport.Cmd.Lines says.
var captureCases = []captureCase{
	{script: ":", out: ""},
	{script: "printf a", out: "a"},
	{script: "echo a", out: "a\n"},
	{script: `printf 'x\n\n\n'`, out: "x\n\n\n"},
	{script: `printf '\n'`, out: "\n"},
	{script: `printf '%s\n' '  lead \back\n' '%s%d' -n 'é ü'`, out: "  lead \\back\\n\n%s%d\n-n\né ü\n"},
	{script: "echo v=1; exit 3", out: "v=1\n", code: 3},
	{script: `echo v=1; ( exit 4 ); x=$?; printf 'x=%s\n\n' "$x"; exit "$x"`, out: "v=1\nx=4\n\n", code: 4},
	{script: "false", out: "", code: 1},
	{script: `x=inner; cd /; printf '%s\n' "$x"`, out: "inner\n"},
	{script: `trap 'echo bye' EXIT; printf 'a\n\n'`, out: "a\n\nbye\n"},
	{script: `trap 'printf bye' EXIT; echo a`, out: "a\nbye\n"},
	{script: `trap '' EXIT; printf 'a\n\n'; exit 2`, out: "a\n", code: 2},
	{script: "trap - EXIT", out: ""},
	{script: `trap 'echo bye; printf %s "${__tender_cs-}"' EXIT; printf 'a\n\n'; exit 6`, out: "a\n\nbye\n", code: 6},
	{script: `trap 'printf %s "${__tender_cs-}"' EXIT; printf 'a\n\n'`, out: "a\n\n"},
	{script: "echo out; echo oops >&2; exit 5", out: "out\n", err: "oops\n", code: 5, needsProgram: true},
	{script: "printf 'no newline' >&2", err: "no newline", needsProgram: true},
}

// TestCaptureFrame runs capture frames of the wrapped cases in the real
// setup script under each local shell, with and without PATH (a frame
// whose stderr is empty must start no program), and checks each answer,
// that the persistent shell's variables and directory stay as they were,
// and that the frames leave no output file of their own behind.
func TestCaptureFrame(t *testing.T) {
	for _, argv := range localShells() {
		for _, withPath := range []bool{false, true} {
			dir := t.TempDir()
			var frames strings.Builder
			frames.WriteString("x=kept\n")
			var bs []string
			var cases []captureCase
			for i, c := range captureCases {
				if !withPath && c.needsProgram {
					continue
				}
				w, err := transport.Wrap(transport.Cmd{Script: c.script, Lines: true, Direct: true})
				if err != nil {
					t.Fatal(err)
				}
				b := fmt.Sprintf("__C%d_", i)
				bs, cases = append(bs, b), append(cases, c)
				frames.Write(captureFrame(b, w.InlineEval()))
			}
			frames.WriteString(`printf 'after=%s %s %s\n' "$x" "$(pwd)" "$(cd "$__tender_d" && echo *)"` + "\n")
			sh := runCaptureFrames(t, argv, withPath, dir, frames.String())
			for i, c := range cases {
				res, skipped, err := sh.answer(bs[i], 1<<20)
				if err != nil || skipped || string(res.Stdout) != c.out || string(res.Stderr) != c.err || res.ExitCode != c.code {
					t.Errorf("%s, PATH kept %v, %q: stdout %q stderr %q rc %d (%v), want %q %q %d",
						argv[0], withPath, c.script, res.Stdout, res.Stderr, res.ExitCode, err, c.out, c.err, c.code)
				}
			}
			rest, _ := sh.out.ReadString('\n')
			if want := "after=kept " + dir + " c\n"; rest != want {
				t.Errorf("%s, PATH kept %v: after the frames %q, want %q", argv[0], withPath, rest, want)
			}
		}
	}
}

// A capture frame's output file that cannot be made (the private
// directory is gone and cannot be made again) fails the Run, as the
// other frames do, instead of passing the script's answer off as whole.
func TestCaptureFrameWithoutDirectory(t *testing.T) {
	for _, argv := range localShells() {
		w, err := transport.Wrap(transport.Cmd{Script: "echo v=1", Lines: true, Direct: true})
		if err != nil {
			t.Fatal(err)
		}
		frames := "rm -rf \"$__tender_d\"; TMPDIR=/nonexistent\n" + string(captureFrame("__C_", w.InlineEval()))
		sh := runCaptureFrames(t, argv, true, t.TempDir(), frames)
		_, _, err = sh.answer("__C_", 1<<20)
		var oe *outputError
		if err == nil || !errors.As(err, &oe) {
			t.Errorf("%s: got %v, want the output error", argv[0], err)
		}
	}
}

// frameOptsOf makes a capture frame of a Cmd that promises Lines and
// Direct and runs inline, and of no other.
func TestCaptureFrameChosen(t *testing.T) {
	for _, c := range []struct {
		cmd  transport.Cmd
		want bool
	}{
		{transport.Cmd{Lines: true, Direct: true}, true},
		{transport.Cmd{Lines: true}, false},
		{transport.Cmd{Direct: true}, false},
		{transport.Cmd{LinesUntil: "x", Direct: true}, false},
		{transport.Cmd{Lines: true, Direct: true, Become: &transport.Become{}}, false},
	} {
		c.cmd.Script = "echo hi"
		w, err := transport.Wrap(c.cmd)
		if err != nil {
			t.Fatal(err)
		}
		fo := frameOptsOf(c.cmd, w)
		if got := fo.capture != ""; got != c.want {
			t.Errorf("%+v: capture %v, want %v", c.cmd, got, c.want)
		}
		if c.want && !strings.HasPrefix(fo.capture, "eval '") {
			t.Errorf("capture command %q", fo.capture)
		}
	}
}

// runCaptureFrames is runFrames for a text of frames run in dir.
func runCaptureFrames(t *testing.T, argv []string, withPath bool, dir, frames string) *shell {
	t.Helper()
	if !withPath {
		frames = "PATH=/nonexistent\n" + frames
	}
	script := setupText("READY") + frames
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+dir)
	cmd.Stdin = strings.NewReader(script)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", argv[0], err)
	}
	return shellOf(t, out)
}

// TestFixedFrames: the frames of a Cmd that promises Direct put their
// outputs in the two files such frames reuse, whether the stdout goes
// straight into the answer or through the shell's read (as in a run of
// frames that share one stat): the answers are whole, a frame's stderr
// does not reach the next one, and no frame leaves a file of its own.
func TestFixedFrames(t *testing.T) {
	cases := []struct {
		post   string
		direct bool
		out    string
		err    string
	}{
		{"", true, "a\nb", "oops\n"}, {"", true, "x\n", ""},
		{" l", false, "v=1\nchanged=\n", ""}, {" l", false, "v=2\n", "warn\n"}, {" l", false, "v=3\n", ""},
		{" l --content--", false, "noop=\n--content--\nbody\xfe\n", ""}, {"", false, "bin\xff\n", "e\n"}, {"", false, "", ""},
	}
	for _, argv := range localShells() {
		dir := t.TempDir()
		var frames strings.Builder
		var bs []string
		for i, c := range cases {
			b := fmt.Sprintf("__F%d_", i)
			bs = append(bs, b)
			cmd := fmt.Sprintf("( printf %%s %s; printf %%s %s >&2 )", transport.Quote(c.out), transport.Quote(c.err))
			frames.Write(subshellFrame(b, cmd, c.post, c.direct, true))
		}
		frames.WriteString(`printf 'after=%s\n' "$(cd "$__tender_d" && echo *)"` + "\n")
		sh := runCaptureFrames(t, argv, true, dir, frames.String())
		for i, c := range cases {
			res, _, err := sh.answer(bs[i], 1<<20)
			if err != nil || string(res.Stdout) != c.out || string(res.Stderr) != c.err || res.ExitCode != 0 {
				t.Errorf("%s, case %d: stdout %q stderr %q rc %d (%v), want %q %q", argv[0], i, res.Stdout, res.Stderr, res.ExitCode, err, c.out, c.err)
			}
		}
		if rest, _ := sh.out.ReadString('\n'); rest != "after=c co\n" {
			t.Errorf("%s: the private directory after the frames: %q", argv[0], rest)
		}
	}
}
