package ssh

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/tender-sh/tender/transport"
)

// boundary returns a fresh random marker for one frame.
func boundary() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return "__TENDER_" + hex.EncodeToString(b[:]) + "_"
}

// printfChunk is how many input bytes one printf line of a frame carries.
const printfChunk = 4096

// buildFrame makes the text sent down the persistent shell for one Run:
// see the protocol description in shell.go.
func buildFrame(b, command string, stdin []byte, lines string) []byte {
	var f bytes.Buffer
	f.Grow(len(command) + len(stdin)*2 + 256)
	fmt.Fprintf(&f, "__tender_pre %s\n{ :\n", b)
	for len(stdin) > 0 {
		n := min(len(stdin), printfChunk)
		f.WriteString("printf '")
		escapePrintf(&f, stdin[:n])
		f.WriteString("'\n")
		stdin = stdin[n:]
	}
	fmt.Fprintf(&f, "} 2>/dev/null | { %s\n} >\"$__tender_o\" 2>\"$__tender_e\"\n__tender_post %s $?%s\n", command, b, lines)
	return f.Bytes()
}

// subshellFrame is buildFrame for a command that runs in a subshell of
// its own, ( ... ) as Wrapped.Inline makes it, and has no stdin: the
// command reads /dev/null, and the shell forks once, for the subshell,
// where the pipeline of buildFrame costs it two forks more. direct: the
// command's stdout is the answer's, printed as it comes after the O
// marker (transport.Cmd.Direct); only its stderr goes to a file. fixed:
// the command leaves no process behind (Direct's promise, whether or not
// its stdout goes straight into the answer), so its outputs go to the
// files every such frame truncates and reuses (__tender_cpre) rather
// than to two new ones.
func subshellFrame(b, command, lines string, direct, fixed bool) []byte {
	pre := "__tender_pre " + b
	if fixed {
		pre = "__tender_cpre"
	}
	if direct {
		return fmt.Appendf(nil, "%s\nprintf '%%sO' %s\n{ %s\n} </dev/null 2>\"$__tender_e\"\n__tender_dpost %s $?\n", pre, b, command, b)
	}
	return fmt.Appendf(nil, "%s\n{ %s\n} </dev/null >\"$__tender_o\" 2>\"$__tender_e\"\n__tender_post %s $?%s\n", pre, command, b, lines)
}

// captureFrame is subshellFrame for a command that promises a few lines
// of text and no process left behind (transport.Cmd.Lines and Direct),
// given as it runs in a subshell of any kind (Wrapped.InlineEval): the
// shell takes its stdout with a command substitution, whose EXIT trap
// prints the boundary last (a script that sets its own prints it from
// $__tender_cs), and its stderr goes to the capture frames' file (see
// shell.go).
func captureFrame(b, command string) []byte {
	return fmt.Appendf(nil, "__tender_cpre\n__tender_c=$(__tender_cs=%s; trap 'printf %%s %s' EXIT; %s </dev/null 2>\"$__tender_e\")\n__tender_cpost %s $?\n", b, b, command, b)
}

// heredocFrame is buildFrame for stdin that is plain text: it goes as a
// quoted here-document, which dash and busybox ash feed through a pipe
// without forking a writer (for up to a pipe's worth), and which needs no
// escaping. It returns nil when stdin is not fit for one: a NUL byte, no
// final newline, or a line equal to the delimiter.
func heredocFrame(b, command string, stdin []byte, lines string) []byte {
	delim := b + "IN"
	if len(stdin) == 0 || stdin[len(stdin)-1] != '\n' || bytes.IndexByte(stdin, 0) >= 0 ||
		bytes.Contains(stdin, []byte("\n"+delim+"\n")) || bytes.HasPrefix(stdin, []byte(delim+"\n")) {
		return nil
	}
	var f bytes.Buffer
	f.Grow(len(command) + len(stdin) + 256)
	fmt.Fprintf(&f, "__tender_pre %s\n{ %s\n} <<'%s' >\"$__tender_o\" 2>\"$__tender_e\"\n", b, command, delim)
	f.Write(stdin)
	fmt.Fprintf(&f, "%s\n__tender_post %s $?%s\n", delim, b, lines)
	return f.Bytes()
}

// postArgs are the arguments, past the status, that have __tender_post
// copy the script's stdout with the shell's read and printf builtins
// instead of cat, for a script that prints a few lines of text
// (transport.Cmd.Lines), or does up to a line it names
// (transport.Cmd.LinesUntil; after that line, cat copies the rest): a
// program fewer per Run. Empty: cat.
func postArgs(cmd transport.Cmd) string {
	switch {
	case cmd.Lines:
		return " l"
	case cmd.LinesUntil != "":
		return " l " + transport.Quote(cmd.LinesUntil)
	}
	return ""
}

// escapePrintf writes data as the inside of a single-quoted printf format
// that prints exactly data: printable ASCII stays as it is, except the
// quote, backslash and percent sign, which become escapes like every
// other byte (three-digit octal, which POSIX printf formats understand),
// and a leading dash, which printf would take for an option.
func escapePrintf(w *bytes.Buffer, data []byte) {
	const digits = "01234567"
	for i, c := range data {
		switch {
		case c == '\n':
			w.WriteString(`\n`)
		case c >= 0x20 && c < 0x7f && c != '\'' && c != '\\' && c != '%' && (c != '-' || i > 0):
			w.WriteByte(c)
		default:
			w.Write([]byte{'\\', digits[c>>6], digits[(c>>3)&7], digits[c&7]})
		}
	}
}

// readUntil reads r up to and including marker and returns what came
// before it; past limit bytes it reads on to the marker and returns
// transport.ErrOutputTooLarge.
func readUntil(r *bufio.Reader, marker []byte, limit int) ([]byte, error) {
	var acc []byte
	last := marker[len(marker)-1]
	over := false
	for {
		chunk, err := r.ReadSlice(last)
		acc = append(acc, chunk...)
		if len(acc) > limit+len(marker) {
			// Past the bound, only the bytes that may begin the marker
			// are kept: the rest is read and dropped, so that the shell
			// stays in step and memory stays bounded.
			over = true
			acc = acc[:copy(acc, acc[len(acc)-len(marker):])]
		}
		switch err {
		case nil:
			if bytes.HasSuffix(acc, marker) {
				if over {
					return nil, transport.ErrOutputTooLarge
				}
				return acc[:len(acc)-len(marker)], nil
			}
		case bufio.ErrBufferFull:
		default:
			return acc, err
		}
	}
}

// killScript signals every descendant of the process pid (and pid itself
// when self is set), found by walking /proc, with sig. It needs nothing but
// sh and Linux's /proc; processes of other users (a script under sudo) are
// signalled where permissions allow, which for sudo itself means it relays
// the signal.
func killScript(pid, sig string, self bool) string {
	all := ""
	if self {
		all = pid
	}
	return `p=` + pid + `; all=` + all + `; new=$p
while [ -n "$new" ]; do
	next=
	for f in /proc/[0-9]*/stat; do
		read -r l <"$f" 2>/dev/null || continue
		r=${l##*) }
		set -- $r
		for q in $new; do [ "$2" = "$q" ] && next="$next ${l%% *}"; done
	done
	all="$all$next"; new=$next
done
[ -z "$all" ] || kill -` + sig + ` $all 2>/dev/null
exit 0`
}
