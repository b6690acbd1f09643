package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/pyre"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// expectModule runs a command and answers its prompts, as ansible-core
// 2.14's expect does with Python's pexpect on the host.
//
// The design, since tender has no Python on targets: the command runs in
// a pseudo-terminal on the host, made by util-linux's script(1) (in every
// Debian, bsdutils being essential, and in RHEL's util-linux), and the
// matching is done on the controller: the terminal's output streams back
// over the connection (transport.Streamer: an exec channel of its own on
// SSH) while it runs, the responses' patterns are Python regular
// expressions run by internal/pyre, and each answer goes back on that
// channel's stdin to a shell builtin (printf) that writes it to the
// terminal (expect_script.go). Matching on the host would need a regular
// expression engine with Python's syntax there, which a minimal host does
// not have; a terminal opened by the SSH server instead would carry
// become's password and the script through the terminal's line
// discipline. So answers (often passwords) are never in an argv, a file
// or a log, and become works as for any module.
//
// As pexpect.run does: the patterns are searched in the output since the
// last match (DOTALL), the earliest match wins, a match's answer is sent
// at once, timeout counts from the start or the last match, and the
// output is all the terminal printed (echo of answers off unless echo).
// Where two patterns match at the same place, the first in responses'
// order wins.
type expectModule struct{}

var _ tasks.Module = expectModule{}

var expectArgs = &tasks.Spec{
	Module: "expect",
	Params: []tasks.Param{
		{Name: "command", Required: true},
		{Name: "chdir", Kind: tasks.Path},
		{Name: "creates", Kind: tasks.Path},
		{Name: "removes", Kind: tasks.Path},
		{Name: "responses", Kind: tasks.Dict, Required: true},
		{Name: "timeout", Kind: tasks.Int, Default: 30},
		{Name: "echo", Kind: tasks.Bool, Default: false},
	},
}

// Spec returns expect's parameters.
func (expectModule) Spec() *tasks.Spec { return expectArgs }

// expectEvent is one of responses: a pattern and its answers. With more
// than one answer (a list), each match takes the next; with one (a
// string), every match takes it.
type expectEvent struct {
	key     string
	re      *pyre.Regexp
	answers []string
	list    bool
	next    int
}

// expectJob is one expect task: the command and its words, the events
// to answer and the timeout (nil: none).
type expectJob struct {
	a       tasks.Values
	command string
	words   []string
	events  []*expectEvent
	timeout *time.Duration
}

// Run runs the command and answers it: the task decoded, the script
// streamed while the session answers it, and the result built from the
// session.
func (expectModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := expectArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	if env.Check {
		return tasks.Result{Skipped: true, Msg: "remote module (expect) does not support check mode", Data: map[string]any{}}, nil
	}
	j, bad, err := decodeExpect(a, args)
	if err != nil || bad != nil {
		if bad != nil {
			return *bad, nil
		}
		return tasks.Result{}, err
	}
	s := &expectSession{events: j.events, timeout: j.timeout}
	res, start, end, err := s.run(ctx, env.Conn, j.script())
	if err != nil {
		if errors.Is(err, transport.ErrNoStream) {
			return tasks.Result{}, fmt.Errorf("expect answers the command from the controller while it runs, which this connection cannot do (an async task cannot): %w", err)
		}
		return tasks.Result{}, err
	}
	return j.result(s, res, start, end), nil
}

// decodeExpect reads the task: the command split as pexpect splits it,
// the responses compiled (patterns Python refuses, and those that match
// an empty text, are an error before the command runs) and the timeout (-1: pexpect's 30 s; null: none). A
// missing command is the failure Ansible gives.
func decodeExpect(a tasks.Values, args tasks.Args) (expectJob, *tasks.Result, error) {
	j := expectJob{a: a, command: a.Str("command")}
	if strings.TrimFunc(j.command, pyIsSpaceRune) == "" {
		return j, &tasks.Result{Failed: true, RC: 256, Msg: "no command given", Data: map[string]any{"rc": 256}}, nil
	}
	if j.words = pexpectSplit(j.command); len(j.words) == 0 {
		r := shared.Fail("no command given: the command line splits into no words")
		return j, &r, nil
	}
	var err error
	if j.events, err = expectEvents(a.Dict("responses")); err != nil {
		return j, nil, err
	}
	if v, given := args["timeout"]; !given || v != nil {
		d := time.Duration(a.Int("timeout")) * time.Second
		switch n := a.Int("timeout"); {
		case n == -1:
			d = 30 * time.Second
		case n < 0:
			d = 0
		}
		j.timeout = &d
	}
	return j, nil, nil
}

// script is expect.sh with the task's inputs: chdir, creates and removes
// as the host expands paths, the program and its quoted arguments.
func (j expectJob) script() string {
	var vars strings.Builder
	for _, p := range []string{"chdir", "creates", "removes"} {
		if j.a.Has(p) {
			fmt.Fprintf(&vars, "%s=%s\n", p, shared.ShPath(j.a.Str(p)))
		}
	}
	var qargs strings.Builder
	for _, w := range j.words[1:] {
		qargs.WriteString(" " + shared.Q(w))
	}
	return shared.DebBlobFuncs + vars.String() + shared.ShAssign([][2]string{{"echo", shared.BoolFlag(j.a.Bool("echo"))},
		{"_t_cmd", j.words[0]}, {"_t_qargs", qargs.String()}, {"_t_mark", expectMark}}) + expectScript
}

// result is what Ansible's expect returns for the session: a chdir
// failure (as the module's traceback), a skip for creates/removes, a
// missing program or script(1), or the command's output, rc and times.
func (j expectJob) result(s *expectSession, res transport.Result, start, end time.Time) tasks.Result {
	v, blobs := shared.ParseDebBlobs(s.prefix)
	path := shared.DebBlobText(blobs, "path")
	switch {
	case v["chdir"] != "":
		why := map[string]string{"2": "FileNotFoundError: [Errno 2] No such file or directory",
			"20": "NotADirectoryError: [Errno 20] Not a directory", "13": "PermissionError: [Errno 13] Permission denied"}[v["chdir"]]
		// Python's os.chdir raised: the module crashed, and Ansible
		// reports its traceback (on the module's output, through SSH).
		tb := fmt.Sprintf("Traceback (most recent call last):\n  File \"ansible/modules/expect.py\", in main\n%s: %s\n", why, shared.PyRepr(path))
		return tasks.Result{Failed: true, RC: 1, Msg: "MODULE FAILURE\nSee stdout/stderr for the exact error",
			Data: map[string]any{"rc": 1, "module_stdout": tb, "module_stderr": ""}}
	case v["skip"] != "":
		out := "skipped, since " + path + " exists"
		if v["skip"] == "removes" {
			out = "skipped, since " + path + " does not exist"
		}
		return tasks.Result{Stdout: out, Data: map[string]any{"cmd": j.command, "stdout": out, "stdout_lines": shared.Lines(out), "rc": 0}}
	case v["notfound"] == "1":
		return shared.Fail(fmt.Sprintf("The command was not found or was not executable: %s.", j.words[0]))
	case v["noscript"] == "1":
		return shared.Fail("expect needs util-linux's script on the host, to run the command in a pseudo-terminal")
	case v["run"] != "1":
		return shared.Fail(shared.ScriptError(res))
	case s.failMsg != "":
		return shared.Fail(s.failMsg)
	}
	out := strings.TrimRight(string(s.output), "\r\n")
	var rc any = res.ExitCode
	if s.timedOut {
		rc = nil
	}
	d := map[string]any{"cmd": j.command, "stdout": out, "stdout_lines": shared.Lines(out), "rc": rc,
		"start": shared.PyTime(start), "end": shared.PyTime(end), "delta": shared.PyDelta(end.Sub(start))}
	r := tasks.Result{Changed: true, Stdout: out, Data: d}
	switch {
	case rc == nil:
		r.Failed, r.Msg = true, "command exceeded timeout"
	case res.ExitCode != 0:
		r.Failed, r.Msg, r.RC = true, "non-zero return code", res.ExitCode
	}
	return r
}

// expectEvents compiles responses: each key a Python regular expression
// (searched with DOTALL, as pexpect compiles it), each value an answer
// or a list of successive answers, sent with a newline as Ansible sends
// them. Keys are taken in the mapping's order.
func expectEvents(responses map[string]any) ([]*expectEvent, error) {
	var out []*expectEvent
	for _, k := range pydict.Keys(responses) {
		re, err := pyre.Compile(k, pyre.Options{DotAll: true})
		if err != nil {
			return nil, fmt.Errorf("responses: %w", err)
		}
		if m, _ := re.Search(""); m != nil {
			// pexpect would find it again at once after each answer,
			// answering without end.
			return nil, fmt.Errorf("responses: the pattern %q matches an empty text, which would be answered again and again without end", k)
		}
		e := &expectEvent{key: k, re: re}
		answer := func(v any) string { return strings.TrimRight(shared.PyToStr(v), "\n") + "\n" }
		if l, ok := responses[k].([]any); ok {
			e.list = true
			for _, x := range l {
				e.answers = append(e.answers, answer(x))
			}
		} else {
			e.answers = []string{answer(responses[k])}
		}
		out = append(out, e)
	}
	return out, nil
}

// pexpectSplit splits a command line as pexpect's split_command_line
// does: whitespace separates words; a backslash takes the next character
// as it is; single and double quotes group, with no escapes inside.
// Leading whitespace gives an empty first word, as there; a trailing
// empty word is dropped.
func pexpectSplit(line string) []string {
	const (
		basic = iota
		esc
		single
		double
		space
	)
	var out []string
	var arg strings.Builder
	state := basic
	for _, c := range line {
		switch state {
		case basic, space:
			switch {
			case c == '\\':
				state = esc
			case c == '\'':
				state = single
			case c == '"':
				state = double
			case pyIsSpaceRune(c):
				if state != space {
					out = append(out, arg.String())
					arg.Reset()
					state = space
				}
			default:
				arg.WriteRune(c)
				state = basic
			}
		case esc:
			arg.WriteRune(c)
			state = basic
		case single:
			if c == '\'' {
				state = basic
			} else {
				arg.WriteRune(c)
			}
		case double:
			if c == '"' {
				state = basic
			} else {
				arg.WriteRune(c)
			}
		}
	}
	if arg.Len() > 0 {
		out = append(out, arg.String())
	}
	return out
}

// pyIsSpaceRune is Python's str.isspace for one character.
func pyIsSpaceRune(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

// pyBytesRepr is Python's repr of a bytes value (pyfmt.BytesRepr).
func pyBytesRepr(b []byte) string { return pyfmt.BytesRepr(string(b)) }
