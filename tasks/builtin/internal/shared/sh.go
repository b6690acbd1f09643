// Package builtin holds tender's built-in modules (shell, command, raw,
// script, copy, file, stat, debug, set_fact, fail, assert, ping, wait_for,
// the file-editing and data modules lineinfile, replace, blockinfile,
// ini_file, template, slurp, tempfile, find, assemble, fetch, apt,
// package, dnf, yum, pip, service, systemd, get_url, uri, unarchive, and
// the system modules user, group, authorized_key, cron, known_hosts,
// getent, hostname, sysctl, modprobe, debconf, selinux, iptables,
// expect, and the source control modules git and subversion).
// Each module does its check-and-apply as one POSIX sh script sent in one
// round trip where it can: the script tests the host's state, changes only
// what differs and prints a verdict as key=value lines that the module
// parses. Every value that reaches a script is quoted with transport.Quote.
// Scripts use only POSIX sh and tools found on Debian, Alpine (busybox) and
// RHEL: stat -c, md5sum, sha1sum, sha256sum, mktemp.
//
// Round trips per task (Conn.Run calls; TestRoundTrips checks them):
//
//	command, shell, raw, script   1 (script's file travels on stdin)
//	copy, one file                1, changed or not; a file over 64 KiB
//	                              that changed: 2 and one Put
//	copy, directory src           1 + one Put per changed file (+1 to set
//	                              mode/owner/group on the new files)
//	copy, remote_src directory    1
//	file, stat, ping              1
//	wait_for                      path: 1 per poll period the script
//	                              waited through (1 when present);
//	                              port: none (Conn.Dial); drained: 1 per poll
//	debug, set_fact, fail, assert 0 (controller side)
//	lineinfile, replace,          1 to read; +1 to write when the content
//	blockinfile, ini_file         or mode/owner/group changes
//	template                      as copy with content (1, changed or not)
//	slurp, tempfile               1
//	find                          1; +1 for contains or get_checksum
//	assemble                      1 (host fragments; +1 with a regexp, to
//	                              list the names); controller fragments:
//	                              as copy with content
//	fetch                         1; a file over 64 KiB that changed: +Get;
//	                              +1 for a src starting with ~ (expanded
//	                              on the host for the local layout)
//
// and, counted by each module's own tests:
//
//	apt, dnf, yum, pip, service,  1 (apt with a controller deb that is
//	systemd                       not on the host: 3 and one Put)
//	package                       that of the module it hands to (+1 to
//	                              probe without ansible_pkg_mgr)
//	get_url                       1 when dest matches the checksum;
//	                              else 1, the request (Conn.Dial) and,
//	                              when the content differs, a Put and 1
//	uri                           the request (+1 for creates, removes or
//	                              dest; dest: a Put and 1 more)
//	unarchive                     1 + a Put and 1 (remote_src: 1, +1
//	                              with creates)
//	user, group, getent, hostname 1
//	modprobe, selinux (unchanged) 1
//	iptables                      1
//	expect                        1 (Conn.Stream: its own exec channel
//	                              on SSH, answers on its stdin)
//	authorized_key, known_hosts,  1 unchanged; 2 changed: one reads, one
//	cron, sysctl, debconf,        writes (a file or crontab that changed
//	selinux (changed)             in between is left alone and reported);
//	                              sysctl's reload or sysctl_set run in
//	                              the second
//	git, subversion               1
package shared

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
)

// Q quotes s for the shell.
func Q(s string) string { return transport.Quote(s) }

// Run runs script on the host with stdin (nil for none).
func Run(ctx context.Context, env *tasks.Env, script string, stdin io.Reader) (transport.Result, error) {
	return env.Conn.Run(ctx, transport.Cmd{Script: script, Stdin: stdin})
}

// RunFinal runs script as Run does, for a module that makes no other call
// once it exits 0 and fails otherwise: the script's failures exit 1, not
// 0 ($_t_failrc, which _t_fail and the modules' own failure paths exit
// with), so its exit status alone says it did not fail, and the engine
// may send the next tasks behind it (transport.Cmd.Final).
func RunFinal(ctx context.Context, env *tasks.Env, script string, stdin io.Reader) (transport.Result, error) {
	return env.Conn.Run(ctx, FinalCmd(script, stdin))
}

// RunVerdict runs script as RunFinal does, for a script whose stdout is
// its verdict: key=value lines of text, never a file's bytes. The host
// then copies them back without starting a program (transport.Cmd.Lines).
func RunVerdict(ctx context.Context, env *tasks.Env, script string, stdin io.Reader) (transport.Result, error) {
	cmd := FinalCmd(script, stdin)
	cmd.Lines = true
	return env.Conn.Run(ctx, cmd)
}

// FinalCmd is RunFinal's command.
func FinalCmd(script string, stdin io.Reader) transport.Cmd {
	return transport.Cmd{Script: "_t_failrc=1\n" + script, Stdin: stdin, Final: true}
}

// Verdict is the key=value lines a module script prints on stdout. A key
// printed twice keeps its last value.
type Verdict map[string]string

// ParseVerdict reads the key=value lines a module script prints.
func ParseVerdict(out []byte) Verdict {
	v := Verdict{}
	for _, line := range strings.Split(string(out), "\n") {
		if k, val, ok := strings.Cut(line, "="); ok && k != "" {
			v[k] = val
		}
	}
	return v
}

// ScriptError reports a module script that failed unexpectedly.
func ScriptError(res transport.Result) string {
	msg := strings.TrimSpace(string(res.Stderr))
	if msg == "" {
		msg = fmt.Sprintf("module script exited with status %d", res.ExitCode)
	}
	return msg
}

// Lines splits s as Python's str.splitlines does for \n, \r\n and \r.
func Lines(s string) []any {
	out := []any{}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	if s == "" {
		return out
	}
	s = strings.TrimSuffix(s, "\n")
	for _, l := range strings.Split(s, "\n") {
		out = append(out, l)
	}
	return out
}

// PyTime formats t as Python's str(datetime.now()).
func PyTime(t time.Time) string { return t.Format("2006-01-02 15:04:05.000000") }

// PyDelta formats d as Python's str(timedelta).
func PyDelta(d time.Duration) string {
	us := d.Microseconds()
	h := us / 3600e6
	m := us / 60e6 % 60
	s := us / 1e6 % 60
	return fmt.Sprintf("%d:%02d:%02d.%06d", h, m, s, us%1e6)
}

// ShFuncs are helpers shared by the module scripts. They only read their
// arguments as quoted words.
//
//go:embed sh_funcs.sh
var ShFuncs string

// ShPath makes a shell word for a path parameter, expanded on the host as
// Ansible's path type expands it (os.path.expanduser(os.path.expandvars)):
// $VAR and ${VAR} of the module's environment, then a leading ~.
func ShPath(p string) string { return ExpandWord(p) }

// ExpandWord makes a shell word that expands a leading ~ and $VAR/${VAR}
// references to set variables, leaving unset ones as written, as Python's
// os.path.expanduser(os.path.expandvars(w)) does for the command module.
// Nothing else in w is interpreted.
func ExpandWord(w string) string {
	var b strings.Builder
	if w == "~" || strings.HasPrefix(w, "~/") {
		b.WriteString(`"$HOME"`)
		w = w[1:]
	} else if name := tildeUser(w); name != "" {
		// ~user: the shell's own tilde expansion, which leaves an
		// unknown user's ~name as written, as Python's expanduser does.
		b.WriteString("~" + name)
		w = w[1+len(name):]
	}
	last := 0
	for _, m := range varRef.FindAllStringSubmatchIndex(w, -1) {
		if m[0] > last {
			b.WriteString(Q(w[last:m[0]]))
		}
		var name string
		if m[2] >= 0 {
			name = w[m[2]:m[3]]
		} else {
			name = w[m[4]:m[5]]
		}
		// A set variable's value, else the reference as written.
		if m[2] >= 0 {
			fmt.Fprintf(&b, `"${%s-\$%s}"`, name, name)
		} else {
			fmt.Fprintf(&b, `"${%s-\${%s\}}"`, name, name)
		}
		last = m[1]
	}
	if last < len(w) || b.Len() == 0 {
		b.WriteString(Q(w[last:]))
	}
	return b.String()
}

// tildeUser is the user name of a leading ~name (up to the first /) when
// it is a portable user name (letters, digits, '.', '_', '-'), which the
// shell expands unquoted; "" otherwise.
func tildeUser(w string) string {
	if !strings.HasPrefix(w, "~") {
		return ""
	}
	name, _, _ := strings.Cut(w[1:], "/")
	if name == "" || strings.HasPrefix(name, "-") {
		return ""
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return ""
		}
	}
	return name
}

// Fail is a failed result with msg.
func Fail(msg string) tasks.Result {
	return tasks.Result{Failed: true, Msg: msg, Data: map[string]any{}}
}

// OutputMark is the line after which a module's script prints what the
// programs it ran printed (SplitOutput); before it, only its verdict
// lines.
const OutputMark = "--output--"

// SplitOutput separates a script's verdict lines from the command output
// that follows an OutputMark line.
func SplitOutput(stdout []byte) (Verdict, string) {
	s := string(stdout)
	head, rest, _ := strings.Cut(s, "\n"+OutputMark+"\n")
	return ParseVerdict([]byte(head)), rest
}

// RunSplit is Run for a script whose output SplitOutput reads: its
// verdict lines, up to OutputMark, are copied to the answer without a
// program on the host (transport.Cmd.LinesUntil).
func RunSplit(ctx context.Context, env *tasks.Env, script string, stdin io.Reader) (transport.Result, error) {
	return env.Conn.Run(ctx, transport.Cmd{Script: script, Stdin: stdin, LinesUntil: OutputMark})
}

// PrepareFunc is _t_prepare DEST TMP BACKUP: before TMP replaces DEST,
// back DEST up when BACKUP is not empty (printing backup_file) and give
// TMP DEST's mode, owner and SELinux context, or a new file's default mode
// and context when DEST does not exist. copy and get_url share it, with
// AttrFuncs.
//
//go:embed prepare_func.sh
var PrepareFunc string

var varRef = regexp.MustCompile(`\$([A-Za-z_][A-Za-z0-9_]*)|\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// RunLive runs script as Run does, but when env.Output is set and the
// connection can stream, it hands each line of stdout to env.Output as
// the script writes it, after the first skip lines (the module's own
// verdict), and each line of stderr; the result holds the whole output
// all the same, bounded as Run bounds it. A connection that cannot stream (a background job's)
// runs it as Run does.
func RunLive(ctx context.Context, env *tasks.Env, script string, stdin io.Reader, skip int) (transport.Result, error) {
	return runLive(ctx, env, transport.Cmd{Script: script, Stdin: stdin}, skip)
}

// RunLiveFinal is RunLive for a script RunFinal would run. until, when
// not empty, is the line after which the script prints what the program
// it runs prints: before it, only the module's own short lines
// (transport.Cmd.LinesUntil).
func RunLiveFinal(ctx context.Context, env *tasks.Env, script string, stdin io.Reader, skip int, until string) (transport.Result, error) {
	cmd := FinalCmd(script, stdin)
	cmd.LinesUntil = until
	return runLive(ctx, env, cmd, skip)
}

func runLive(ctx context.Context, env *tasks.Env, cmd transport.Cmd, skip int) (transport.Result, error) {
	if env.Output == nil {
		return env.Conn.Run(ctx, cmd)
	}
	w := &liveWriter{out: func(l string) { env.Output(l, false) }, skip: skip, max: transport.DefaultMaxOutput}
	ew := &liveWriter{out: func(l string) { env.Output(l, true) }} // the Result keeps stderr
	plain := transport.Cmd{Script: cmd.Script, Lib: cmd.Lib, Stdin: cmd.Stdin}
	live := plain
	live.LiveStderr = ew
	res, err := transport.Stream(ctx, env.Conn, live, w)
	if errors.Is(err, transport.ErrNoStream) {
		return env.Conn.Run(ctx, plain)
	}
	if err != nil {
		return res, err
	}
	w.flush()
	ew.flush()
	if w.over {
		return res, transport.ErrOutputTooLarge
	}
	res.Stdout = w.all.Bytes()
	return res, nil
}

// liveWriter keeps what a script writes (up to max; nothing when max is
// 0) and hands its complete lines on. Of a line longer than maxPartial,
// its first maxPartial+1 bytes are handed on once they came (the
// receiver cuts it), the rest dropped.
type liveWriter struct {
	out     func(string)
	skip    int
	max     int
	all     bytes.Buffer
	partial []byte
	cut     bool // the line in progress was handed on already
	over    bool
}

// maxPartial bounds the part of a line a liveWriter holds.
const maxPartial = 64 << 10

func (w *liveWriter) Write(p []byte) (int, error) {
	if w.max > 0 {
		if w.all.Len()+len(p) > w.max {
			w.over = true
			return len(p), nil
		}
		w.all.Write(p)
	}
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if !w.cut {
			w.partial = append(w.partial, chunk[:min(len(chunk), maxPartial+1-len(w.partial))]...)
		}
		if i < 0 {
			if !w.cut && len(w.partial) > maxPartial {
				w.line(string(w.partial))
				w.partial, w.cut = w.partial[:0], true
			}
			break
		}
		if !w.cut {
			w.line(string(w.partial))
		}
		w.partial, w.cut = w.partial[:0], false
		p = p[i+1:]
	}
	return n, nil
}

// flush hands on a last line without its newline.
func (w *liveWriter) flush() {
	if len(w.partial) > 0 && !w.cut {
		w.line(string(w.partial))
	}
	w.partial, w.cut = nil, false
}

func (w *liveWriter) line(s string) {
	if w.skip > 0 {
		w.skip--
		return
	}
	w.out(strings.TrimSuffix(s, "\r"))
}
