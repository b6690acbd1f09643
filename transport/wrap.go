package transport

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"al.essio.dev/pkg/shellescape"
)

// Quote quotes s for a POSIX shell, so that any value (an item named
// `a; rm -rf /` included) reaches the command as one literal word.
func Quote(s string) string { return shellescape.Quote(s) }

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Wrapped is a Cmd made ready for a plain sh: a fixed command line that
// holds no script, no value and no secret, and the stdin that carries them.
type Wrapped struct {
	// Command is the command line to start (with sh -c, or as an SSH exec
	// request). It only reads the script from stdin and runs it.
	Command string
	// Stdin carries, in order: the become password line (when there is
	// one), the framed script, then the caller's own stdin.
	Stdin io.Reader
	// Prefix is how many of Stdin's first bytes are Wrap's own (password,
	// boundary, script); the caller's stdin follows them.
	Prefix int
	// Inline, for a command without become, runs the script (environment
	// included) in a subshell straight from its text: "( eval 'SCRIPT' )".
	// It is for a shell that reads commands from its stdin (a persistent
	// shell), where no command line is ever visible: it saves starting sh
	// and head for every script. Its stdin is the caller's stdin alone.
	// Empty with become. It leaves Lib out: the shell must have run
	// LibScript for each of Lib's pieces first (once is enough).
	Inline string
	// Lib is the Cmd's Lib, for Inline (nil with become).
	Lib []string
	// head is Wrap's own part of Stdin (Prefix bytes), in pieces.
	head []string
}

// LibScript is the statement that makes a shell define one of a Cmd's
// Lib pieces for the Runs after it: the piece as an eval's argument, so
// that a shell that cannot parse it reports so and goes on (command
// keeps eval's syntax error from ending a non-interactive shell). It
// prints nothing on stdout.
func LibScript(piece string) string {
	libScripts.Lock()
	defer libScripts.Unlock()
	if s, ok := libScripts.m[piece]; ok {
		return s
	}
	s := "command eval " + Quote(piece) + "\n"
	if libScripts.bytes+len(piece)+len(s) <= libScriptsMax {
		if libScripts.m == nil {
			libScripts.m = map[string]string{}
		}
		libScripts.m[piece] = s
		libScripts.bytes += len(piece) + len(s)
	}
	return s
}

// libScripts keeps LibScript's answers: pieces are a program's constants,
// quoted once for the process instead of once per connection. Bounded
// (libScriptsMax bytes), so that pieces made on the fly cannot grow it
// without end; past the bound a piece is quoted each time.
var libScripts struct {
	sync.Mutex
	m     map[string]string
	bytes int
}

const libScriptsMax = 4 << 20

// Head returns a new reader of Wrap's own part of Stdin (its first
// Prefix bytes), for a transport that took the caller's stdin apart.
func (w Wrapped) Head() io.Reader {
	rs := make([]io.Reader, len(w.head))
	for i, p := range w.head {
		rs[i] = strings.NewReader(p)
	}
	return io.MultiReader(rs...)
}

// HeadBytes returns a copy of Wrap's own part of Stdin with extra after
// it.
func (w Wrapped) HeadBytes(extra []byte) []byte {
	out := make([]byte, 0, w.Prefix+len(extra))
	for _, p := range w.head {
		out = append(out, p...)
	}
	return append(out, extra...)
}

// InlineEval is Inline's command without its subshell's parentheses,
// "eval 'SCRIPT'", for a shell that runs it in a subshell of another
// kind (a command substitution); empty when Inline is.
func (w Wrapped) InlineEval() string {
	if len(w.Inline) < len("(  )") {
		return ""
	}
	return w.Inline[len("( ") : len(w.Inline)-len(" )")]
}

// inlineScript is "( eval 'ENV SCRIPT' )", the environment's exports
// and the script quoted as Quote quotes a text that ends in a newline,
// written in one allocation.
func inlineScript(env, s string) string {
	var b strings.Builder
	b.Grow(len(env) + len(s) + len(s)/16 + 16)
	b.WriteString("( eval '")
	for _, part := range []string{env, s} {
		for {
			i := strings.IndexByte(part, '\'')
			if i < 0 {
				break
			}
			b.WriteString(part[:i])
			b.WriteString(`'"'"'`)
			part = part[i+1:]
		}
		b.WriteString(part)
	}
	if !strings.HasSuffix(s, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString("' )")
	return b.String()
}

// Wrap prepares cmd so that every transport runs it the same way: the
// environment is exported, become is applied through sudo, and neither the
// script nor any value in it appears on a command line, where other users
// of the host could read it with ps. The script travels on stdin after a
// line holding a random boundary; a small reader in Command takes exactly
// its bytes and evals them, leaving what follows on stdin to the script.
func Wrap(cmd Cmd) (Wrapped, error) {
	var env strings.Builder
	keys := make([]string, 0, len(cmd.Env))
	for k := range cmd.Env {
		if !envName.MatchString(k) {
			return Wrapped{}, fmt.Errorf("environment variable name %q is not a valid shell name", k)
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&env, "export %s=%s\n", k, Quote(cmd.Env[k]))
	}
	for _, p := range cmd.Lib {
		if !strings.HasSuffix(p, "\n") {
			return Wrapped{}, errors.New("a Lib piece of the script does not end with a newline")
		}
	}
	// The script's text, in pieces that share the caller's strings: the
	// environment, the Lib, the script and its last newline.
	text := make([]string, 0, len(cmd.Lib)+3)
	text = append(text, env.String())
	text = append(text, cmd.Lib...)
	text = append(text, cmd.Script)
	if !strings.HasSuffix(cmd.Script, "\n") {
		text = append(text, "\n")
	}
	size := 0
	for _, p := range text {
		size += len(p)
	}

	b := boundary()
	// The reader skips lines up to the boundary (a become password that
	// sudo did not ask for is skipped with them), then takes exactly the
	// script's bytes with head -c, which reads no further (GNU and busybox
	// both read at most the count asked), and evals them.
	reader := fmt.Sprintf(`while IFS= read -r __tender_l; do [ "$__tender_l" = %s ] && break; done; `+
		`unset __tender_l; eval "$(head -c %d)"`, b, size)

	var head []string
	command := "/bin/sh -c " + Quote(reader)
	if cmd.Become != nil {
		c, err := sudoCommand(cmd.Become, reader)
		if err != nil {
			return Wrapped{}, err
		}
		command = c
		if cmd.Become.Password != "" {
			head = append(head, cmd.Become.Password+"\n")
		}
	}
	head = append(head, b+"\n")
	head = append(head, text...)
	w := Wrapped{Command: command, head: head}
	for _, p := range head {
		w.Prefix += len(p)
	}
	if cmd.Become == nil {
		w.Inline = inlineScript(text[0], cmd.Script)
		w.Lib = cmd.Lib
	}
	w.Stdin = w.Head()
	if cmd.Stdin != nil {
		w.Stdin = io.MultiReader(w.Stdin, cmd.Stdin)
	}
	return w, nil
}

// sudoCommand builds the command line that runs reader as b's user, by
// b's method:
//
//   - sudo (the default): with a password, sudo reads it from stdin (-S)
//     without a prompt; without one, -n makes sudo fail at once instead of
//     waiting for a password nobody will type. A password line that sudo
//     does not ask for is skipped by the reader, which looks for the
//     boundary. -H sets HOME to the user's, as Ansible's sudo flags do.
//   - su: "su USER -c CMD", as Ansible's su runs it (HOME kept; CMD run by
//     the user's login shell).
//   - doas: "doas -n -u USER CMD".
//
// su and doas read a password from a terminal only, so a password with
// them is refused rather than typed into nothing.
func sudoCommand(b *Become, reader string) (string, error) {
	user := b.User
	if user == "" {
		user = "root"
	}
	inner := "/bin/sh -c " + Quote(reader)
	method := b.Method
	if method == "" {
		method = "sudo"
	}
	exe := method
	if b.Exe != "" {
		exe = Quote(b.Exe)
	}
	switch method {
	case "sudo":
		// Ansible's default flags are -H -S -n; given flags replace them,
		// keeping how the password travels (-S, or -n without one).
		flags := "-H"
		if b.Flags != "" {
			flags = stripFlags(b.Flags, "-S", "-n")
		}
		mode := "-n"
		if b.Password != "" {
			mode = "-S"
		}
		return fmt.Sprintf("%s %s -p '' %s -u %s -- %s", exe, mode, flags, Quote(user), inner), nil
	case "su", "doas":
		if b.Password != "" {
			return "", fmt.Errorf("become method %s with a become password is not supported: %s reads the password from a terminal, which tender does not open; use sudo, or make %s need no password", method, method, method)
		}
		flags := b.Flags
		if method == "su" {
			return strings.Join(strings.Fields(fmt.Sprintf("%s %s %s -c %s", exe, flags, Quote(user), Quote(inner))), " "), nil
		}
		if flags == "" {
			flags = "-n"
		}
		return fmt.Sprintf("%s %s -u %s %s", exe, flags, Quote(user), inner), nil
	}
	return "", fmt.Errorf("become method %q is not supported (sudo, su and doas are)", b.Method)
}

// stripFlags drops the given words from a flags string.
func stripFlags(flags string, drop ...string) string {
	var keep []string
	for _, f := range strings.Fields(flags) {
		if !slices.Contains(drop, f) {
			keep = append(keep, f)
		}
	}
	return strings.Join(keep, " ")
}

func boundary() string {
	var buf [16]byte
	if _, err := rand.Read(buf[:]); err != nil {
		panic("crypto/rand failed: " + err.Error()) // never happens on Linux
	}
	return "__TENDER_" + hex.EncodeToString(buf[:]) + "__"
}
