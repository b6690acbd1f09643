package ssh

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	xssh "golang.org/x/crypto/ssh"

	"github.com/tender-sh/tender/transport"
)

// The persistent shell protocol.
//
// One session per connection runs `exec /bin/sh` (started through the
// login shell, so any login shell works), which reads commands from the
// session's stdin. At start the client sends setupScript, which makes a
// private directory and defines two helpers, and waits for a ready line
// carrying the shell's pid.
//
// Each Run is then one frame, written at once, and one answer. Where the
// shell is not bash and the stdin is plain text without a secret, the
// frame carries it as a quoted here-document instead (see heredocFrame),
// which saves the remote shell a fork. Without become, the command is the
// script itself, quoted: ( eval 'SCRIPT' ) (transport.Wrapped.Inline), so
// no sh and no head are started for it (the frame is the shell's stdin,
// never a command line); $$ in the script is then the persistent shell's
// pid. An inline script's Lib pieces (transport.Cmd.Lib) are not in it:
// the frame is preceded by `command eval 'PIECE'` for each piece the
// shell has not defined yet (shell.libDefs), in the shell itself, so the
// functions serve every later frame; a new shell starts with none. With
// become it is Wrap's reader under sudo, the pieces in its script.
// Otherwise:
//
//	__tender_pre B
//	{ :
//	printf '<Wrapped.Stdin, printf-escaped>'   (as many lines as needed)
//	} 2>/dev/null | { <Wrapped.Command>
//	} >"$__tender_o" 2>>"$__tender_e"
//	__tender_post B $?
//
// B is a fresh random boundary. The script's whole stdin (the become
// password, the framed script and the caller's bytes, see transport.Wrap)
// travels inside the frame as printf format strings whose bytes outside
// printable ASCII are octal escapes, so any binary stdin survives and the
// shell parses it as text. The printf builtin pipes it into the command:
// the script reads exactly Cmd.Stdin and then end-of-file, and nothing in
// the frame can read the shell's own stdin, so the next frame is safe.
// The secret-bearing bytes never reach an argv (printf is a builtin) or a
// disk (a pipe).
//
// Stdout and stderr go to two files in the private directory, fresh for
// each Run (old ones are removed every 64 Runs, sparing an rm per Run), so
// a background process the script leaves behind can never write into a
// later answer. Each Run is also given in $__tender_w a path of its own
// in the private directory, where no file is, for a directory of scratch
// files (a module script's temporary directory, shared/tmpd_funcs.sh's
// _t_tmpd): a script makes it with one mkdir, where mktemp and an rm at
// its exit took two programs, and the sweep removes it. A script run
// apart from the shell (under become) does not see the variable, and
// makes its own. __tender_post prints the answer:
//
//	B O <stdout bytes> [B E <stderr bytes>] B X <exit code> \n
//
// (without the spaces), which the client cuts at the markers; the stderr
// part is there only when the script wrote some. When the output files
// could not be written (a full or vanished temporary directory: the byte
// __tender_pre writes first did not land) the answer is B O B F
// <directory> \n and the Run fails. A frame costs the remote shell a fork
// for the subshell (more for a pipeline, and sh and head under become),
// a cat for each output that is not empty, and the client one write and
// one read: one round trip. A script that promises a few lines of text
// (transport.Cmd.Lines; module verdicts) has its stdout copied by read
// and printf instead of cat, up to 64 lines: on hosts where starting a
// program costs milliseconds, that is most of a no-op task's cost. Such
// an answer, and one with no output, is printed in a single write: sshd
// sends a packet for each piece the shell writes, and each costs the
// host and the controller a read, an encryption and a wakeup. A script
// that promises to leave no process behind (transport.Cmd.Direct; a
// module reading a file) and runs in a subshell without stdin writes
// its stdout straight into the answer, after the O marker, and only its
// stderr goes to a file (__tender_dpost): no cat for its output. As no
// process of such a script can write later, its outputs go to two files
// that every such frame truncates and reuses, co and c (__tender_cpre),
// rather than to two new ones, and no byte is written first to check
// the directory: __tender_cpre makes a vanished one again, and one it
// cannot make shows as a missing file after the frame (the Run fails);
// on a full disk the stderr may be lost. One that promises Lines
// too (a module's verdict) is a capture frame (captureFrame): the shell
// takes its stdout with a command substitution, in place of the
// subshell (one fork still), from a pipe in blocks, where reading a
// file back costs dash's read a system call per byte (a no-op task's
// 160-byte verdict cost 160 reads). The substitution's EXIT trap prints
// the boundary after the script's output, so that the shell can give
// back the trailing newlines the substitution drops (see
// transport.Cmd.Lines for a script that sets its own trap). The sweep
// of the private directory every 64 frames starts rm only when there
// are files to remove.
//
// When a Run's ctx ends, the client kills the shell's descendants (found
// through /proc from a separate exec channel) so the shell finishes the
// frame and stays in step; if it does not within recoverTimeout the shell
// is discarded and the next Run starts a new one.
const shellCommand = "exec /bin/sh"

// Shell modes, chosen by the remote shell at setup.
const (
	modeEval = "eval" // frames are written as they are; sh parses them from its stdin
	modeLen  = "len"  // frames are length-prefixed for lenLoop (bash as /bin/sh)
)

const setupScript = `exec 2>/dev/null
__tender_d=$(umask 077 && mktemp -d "${TMPDIR:-/tmp}/.tender.XXXXXXXX") || exit 1
trap 'rm -rf "$__tender_d"' EXIT
__tender_n=0
__tender_cpre() {
	[ -d "$__tender_d" ] || __tender_d=$(umask 077 && mktemp -d "${TMPDIR:-/tmp}/.tender.XXXXXXXX")
	__tender_n=$((__tender_n + 1))
	if [ $((__tender_n %% 64)) -eq 0 ]; then
		for __tender_f in "$__tender_d"/[oew][0-9]*; do
			[ -e "$__tender_f" ] && rm -rf -- "$__tender_d"/[oew][0-9]*
			break
		done
	fi
	__tender_p=${__tender_d:-/dev/null}
	__tender_w=$__tender_p/w$__tender_n __tender_o=$__tender_p/co __tender_e=$__tender_p/c __tender_k=1
}
__tender_pre() {
	__tender_cpre
	__tender_o=$__tender_p/o$__tender_n __tender_e=$__tender_p/e$__tender_n __tender_k=
	printf %%s "$1" 2>/dev/null >"$__tender_e"
	[ -s "$__tender_e" ] && __tender_k=1
}
__tender_post() {
	__tender_x=$2
	if [ -n "$__tender_k" ] && [ -f "$__tender_o" ] && [ -f "$__tender_e" ]; then
		if [ -n "${3-}" ]; then
			__tender_lines "$1" "$2" "${4-}" <"$__tender_o"
		elif [ -s "$__tender_o" ]; then
			printf '%%sO' "$1"
			cat "$__tender_o"
			__tender_tail "$1" "$2"
		elif [ -s "$__tender_e" ]; then
			printf '%%sO' "$1"
			__tender_tail "$1" "$2"
		else
			printf '%%sO%%sX%%s\n' "$1" "$1" "$2"
		fi
	else
		__tender_x=F
		printf '%%sO%%sF%%s\n' "$1" "$1" "${__tender_d:-no directory}"
	fi
}
__tender_cpost() {
	__tender_x=$2 __tender_i=0
	if [ -f "$__tender_e" ]; then
		case $__tender_c in
		*"$1") __tender_a=${__tender_c%%"$1"} ;;
		'') __tender_a= ;;
		*) __tender_a=$__tender_c'
' ;;
		esac
		__tender_c=
		if [ -s "$__tender_e" ]; then
			printf '%%sO%%s' "$1" "$__tender_a"
			__tender_tail "$1" "$2"
		else
			printf '%%sO%%s%%sX%%s\n' "$1" "$__tender_a" "$1" "$2"
		fi
	else
		__tender_x=F __tender_c=
		printf '%%sO%%sF%%s\n' "$1" "$1" "${__tender_d:-no directory}"
	fi
}
__tender_dpost() {
	__tender_x=$2
	if [ -n "$__tender_k" ] && [ -f "$__tender_e" ]; then
		__tender_tail "$1" "$2"
	else
		__tender_x=F
		printf '%%sF%%s\n' "$1" "${__tender_d:-no directory}"
	fi
}
__tender_tail() {
	if [ -s "$__tender_e" ]; then
		printf '%%sE' "$1"
		cat "$__tender_e"
	fi
	printf '%%sX%%s\n' "$1" "$2"
}
__tender_lines() {
	__tender_i=0 __tender_a= __tender_l=
	while [ $__tender_i -lt 64 ] && IFS= read -r __tender_l; do
		__tender_a="$__tender_a$__tender_l
"
		__tender_i=$((__tender_i + 1))
		if [ -n "$3" ] && [ "$__tender_l" = "$3" ]; then
			__tender_i=64
		fi
		__tender_l=
	done
	if [ $__tender_i -ge 64 ]; then
		printf '%%sO%%s' "$1" "$__tender_a"
		cat
		__tender_tail "$1" "$2"
	elif [ -s "$__tender_e" ]; then
		printf '%%sO%%s%%s' "$1" "$__tender_a" "$__tender_l"
		__tender_tail "$1" "$2"
	else
		printf '%%sO%%s%%s%%sX%%s\n' "$1" "$__tender_a" "$__tender_l" "$1" "$2"
	fi
}
__tender_sfk() {
	__tender_sp=
	[ "$__tender_x" = 0 ] && [ "${__tender_i:-64}" -lt 64 ] &&
		case "
$__tender_a" in *"
$1
"*) ;; *) false ;; esac || __tender_sf=
}
__tender_skip() {
	__tender_x=S
	printf '%%sO%%sS\n' "$1" "$1"
}
__tender_m=eval
if [ -n "${BASH_VERSION-}" ] && [ "$(printf abcdef | head -c 3 2>/dev/null)" = abc ] &&
	head --version 2>/dev/null | grep -q GNU; then
	__tender_m=len
fi
printf '%%s %%s %%s %%s\n' %s "$$" "$__tender_m" "$__tender_d"
`

// setupText is setupScript for a shell that prints ready when set up.
func setupText(ready string) string {
	return fmt.Sprintf(setupScript, ready)
}

// lenLoop is what a bash shell runs after setup in "len" mode: bash reads
// a script from a pipe one byte at a time (so that commands can share its
// stdin), which makes parsing a large frame slow; here each frame comes
// after a line with its length and is read in blocks by GNU head, which
// reads exactly that many bytes, and then evaluated. The frame never
// touches the disk.
const lenLoop = "while IFS= read -r __tender_len; do eval \"$(head -c \"$__tender_len\")\"; done\n"

const (
	shellStartTimeout = 15 * time.Second
	recoverTimeout    = 10 * time.Second
)

// shell is a started persistent shell.
type shell struct {
	sess  *xssh.Session
	stdin io.WriteCloser
	out   *bufio.Reader
	pid   string // the remote sh's pid, for killing its children
	mode  string // modeEval or modeLen
	dir   string // the shell's private directory, as it began
	// libs is the Lib pieces (transport.Cmd.Lib) the shell has defined,
	// by their text: a frame defines the pieces of its script that are
	// not there yet, before its own statements. Only the Run that holds
	// the shell touches it.
	libs map[string]bool
}

// libDefs returns the statements that define the pieces of lib that sh
// has not defined yet, and records them as defined: the caller writes
// them to sh, at the top level of a frame (never inside a gate that may
// skip them), before the frame that needs them.
func (sh *shell) libDefs(lib []string) []byte {
	var out []byte
	for _, p := range lib {
		if sh.libs[p] {
			continue
		}
		if sh.libs == nil {
			sh.libs = map[string]bool{}
		}
		sh.libs[p] = true
		out = append(out, transport.LibScript(p)...)
	}
	return out
}

// startShell starts the persistent shell; the caller has set state to
// shellStarting. On failure the state becomes shellRefused (the host said
// no) or shellNone (ctx ended or the connection broke).
func (c *Conn) startShell(ctx context.Context) (*shell, error) {
	setState := func(s shellState) {
		c.mu.Lock()
		c.state = s
		c.mu.Unlock()
	}
	if err := c.acquire(ctx); err != nil {
		setState(shellNone)
		return nil, err
	}
	sh, err := c.openShell(ctx)
	if err != nil {
		c.release()
		if ctx.Err() != nil || isDead(c.dead) {
			setState(shellNone)
		} else {
			setState(shellRefused)
		}
		return nil, err
	}
	setState(shellReady)
	return sh, nil
}

func (c *Conn) openShell(ctx context.Context) (*shell, error) {
	sess, err := c.newSession(ctx)
	if err != nil {
		return nil, err
	}
	stdin, err := sess.StdinPipe()
	if err != nil {
		sess.Close()
		return nil, err
	}
	stdout, err := sess.StdoutPipe()
	if err != nil {
		sess.Close()
		return nil, err
	}
	// The shell's own stderr goes to /dev/null (setupScript's first
	// line: its scripts' go to files). Its channel's stderr is a pipe
	// never read: what sshd may print there before the shell starts
	// waits in the channel's buffer (at most its window), where given no
	// writer the SSH library would keep a goroutine and an 8 KiB buffer
	// per host draining it.
	if _, err := sess.StderrPipe(); err != nil {
		sess.Close()
		return nil, err
	}
	if err := sess.Start(or(c.opts.shellCommand, shellCommand)); err != nil {
		sess.Close()
		return nil, err
	}
	ready := boundary()
	sh := &shell{sess: sess, stdin: chunkedWriter{stdin}, out: bufio.NewReaderSize(stdout, 4<<10)}
	type answer struct {
		pid, mode string
		err       error
	}
	got := make(chan answer, 1)
	go func() {
		if _, err := io.WriteString(stdin, setupText(ready)); err != nil {
			got <- answer{err: err}
			return
		}
		if _, err := readUntil(sh.out, []byte(ready+" "), transport.DefaultMaxOutput); err != nil {
			got <- answer{err: err}
			return
		}
		line, err := sh.out.ReadString('\n')
		pid, rest, _ := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		mode, dir, _ := strings.Cut(rest, " ")
		sh.dir = dir
		if err == nil && mode == modeLen {
			_, err = io.WriteString(stdin, lenLoop)
		}
		got <- answer{pid, mode, err}
	}()
	timer := time.NewTimer(shellStartTimeout)
	defer timer.Stop()
	select {
	case a := <-got:
		if a.err == nil {
			if _, perr := strconv.Atoi(a.pid); perr != nil {
				a.err = fmt.Errorf("persistent shell answered %q", a.pid)
			}
		}
		if a.err != nil {
			sess.Close()
			return nil, a.err
		}
		sh.pid, sh.mode = a.pid, a.mode
		return sh, nil
	case <-ctx.Done():
		sess.Close()
		return nil, ctx.Err()
	case <-timer.C:
		sess.Close()
		return nil, errors.New("persistent shell did not answer")
	}
}

type shellAnswer struct {
	res transport.Result
	err error
}

// runShell runs one frame on sh, which the caller holds. subshell: the
// command is a ( ... ) subshell (Wrapped.Inline), which may run in a
// brace group of the shell without touching the shell's own state.
func (c *Conn) runShell(ctx context.Context, sh *shell, command string, subshell bool, stdin []byte, fo frameOpts, limit int) (transport.Result, error) {
	b := boundary()
	frame := sh.lengthPrefixed(append(sh.libDefs(fo.lib), shellFrame(sh, b, command, subshell, stdin, fo)...))
	c.stats.shellRuns.Add(1)
	c.stats.writes.Add(1)
	done := make(chan shellAnswer, 1)
	go func() {
		res, err := sh.exchange(frame, b, limit)
		done <- shellAnswer{res, err}
	}()
	select {
	case a := <-done:
		var oe *outputError
		if errors.As(a.err, &oe) {
			c.idle <- sh
			return transport.Result{}, fmt.Errorf("%s: %w", c.name, a.err)
		}
		if errors.Is(a.err, transport.ErrOutputTooLarge) {
			// The answer's rest is unread: the shell is out of step, but
			// the host is fine.
			c.discard(sh)
			return transport.Result{}, fmt.Errorf("%s: %w", c.name, a.err)
		}
		if a.err != nil {
			c.discard(sh)
			return transport.Result{}, c.broken("run", a.err)
		}
		c.idle <- sh
		return a.res, nil
	case <-ctx.Done():
		go c.recoverShell(sh, done)
		return transport.Result{}, ctx.Err()
	}
}

// frameOpts is what a frame takes from its Cmd besides the command.
type frameOpts struct {
	secret  bool     // stdin carries a become password
	lines   string   // __tender_post's arguments past the status (postArgs)
	direct  bool     // stdout may go straight into the answer (transport.Cmd.Direct)
	capture string   // the command for a capture frame (captureFrame); empty: none
	fixed   bool     // the outputs may go to the files every such frame reuses (transport.Cmd.Direct)
	lib     []string // the Lib the shell must define first (Wrapped.Lib, for an inline command)
}

// frameOptsOf is cmd's frameOpts, wrapped as w.
func frameOptsOf(cmd transport.Cmd, w transport.Wrapped) frameOpts {
	fo := frameOpts{secret: isSecret(cmd), lines: postArgs(cmd), direct: cmd.Direct, fixed: cmd.Direct}
	if w.Inline != "" {
		fo.lib = w.Lib
		if cmd.Lines && cmd.Direct {
			fo.capture = w.InlineEval()
		}
	}
	return fo
}

// shellFrame is the frame that runs command on sh with stdin, answered
// under the boundary b (see runShell).
func shellFrame(sh *shell, b, command string, subshell bool, stdin []byte, fo frameOpts) []byte {
	var frame []byte
	if len(stdin) == 0 && subshell && fo.capture != "" {
		frame = captureFrame(b, fo.capture)
	} else if len(stdin) == 0 && subshell {
		frame = subshellFrame(b, command, fo.lines, fo.direct, fo.fixed)
	} else if sh.mode == modeEval && !fo.secret {
		// Not with bash (older versions keep here-documents in
		// temporary files) nor with a become password (never on disk).
		frame = heredocFrame(b, command, stdin, fo.lines)
	}
	if frame == nil {
		frame = buildFrame(b, command, stdin, fo.lines)
	}
	return frame
}

// lengthPrefixed is frame as sh reads it: after a line with its length
// in modeLen, as it is otherwise.
func (sh *shell) lengthPrefixed(frame []byte) []byte {
	if sh.mode == modeLen {
		return append([]byte(strconv.Itoa(len(frame))+"\n"), frame...)
	}
	return frame
}
