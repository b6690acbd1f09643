package commands

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tender-sh/tender/internal/shlex"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// commandModule is both command (argv run directly, no shell) and shell
// (the text run by /bin/sh -c or executable). One round trip: the script
// changes directory, decides creates/removes, and runs the command,
// printing its verdict as the first line of stdout.
type commandModule struct{ shell bool }

var _ tasks.Module = (*commandModule)(nil)

func commandSpec(name string, shell bool) *tasks.Spec {
	s := &tasks.Spec{
		Module:   name,
		FreeForm: true,
		Params: []tasks.Param{
			{Name: "chdir", Kind: tasks.Path},
			{Name: "creates", Kind: tasks.Path},
			{Name: "removes", Kind: tasks.Path},
			{Name: "executable"},
			{Name: "stdin"},
			{Name: "stdin_add_newline", Kind: tasks.Bool, Default: true},
			{Name: "strip_empty_ends", Kind: tasks.Bool, Default: true},
			{Name: "cmd"},
		},
	}
	if !shell {
		s.Params = append(s.Params, tasks.Param{Name: "argv", Kind: tasks.List})
	}
	return s
}

var (
	commandArgs = commandSpec("command", false)
	shellArgs   = commandSpec("shell", true)
)

// commandJob is one command or shell task: its decoded arguments, the
// command as Ansible reports it, and the part of the script that runs it.
type commandJob struct {
	a            tasks.Values
	shell, check bool
	// raw is the command's text: the free form, else cmd.
	raw string
	// argv is the command's words: argv, or raw split into shell words
	// for command.
	argv []string
	// cmd is the result's cmd: the text for shell, the words for command.
	cmd any
	// run is the part of the script that runs the command after the gate.
	run      string
	warnings []string
}

// Run runs the command once, unless creates/removes say it has already run.
func (m *commandModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := m.Spec().Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j, bad, err := decodeCommand(a, m.shell, env.Check)
	if err != nil {
		return tasks.Result{}, err
	}
	if bad != nil {
		return *bad, nil
	}
	script, stdin := j.script(), j.stdin()
	start := time.Now()
	// Live, the command's lines reach the run as they come; the first
	// line is the gate's verdict, and only after tender=run does the
	// script print what no module wrote.
	out, err := shared.RunLiveFinal(ctx, env, script, stdin, 1, "tender=run")
	end := time.Now()
	if err != nil {
		return tasks.Result{}, err
	}
	if !out.End.IsZero() {
		// It was sent ahead of its turn: it ran then.
		start, end = out.Start, out.End
	}
	return j.result(out, start, end), nil
}

// decodeCommand validates the arguments of command (shell false) or
// shell and plans the part of the script that runs the command. A
// non-nil result is the failure Ansible reports when no command, or both
// a command and argv, are given.
func decodeCommand(a tasks.Values, shell, check bool) (commandJob, *tasks.Result, error) {
	j := commandJob{a: a, shell: shell, check: check, raw: a.Str("_raw_params"), argv: a.Strings("argv")}
	if j.raw == "" {
		j.raw = a.Str("cmd")
	}
	if strings.TrimSpace(j.raw) == "" && len(j.argv) == 0 {
		return j, j.badArgs("no command given"), nil
	}
	if j.raw != "" && len(j.argv) > 0 {
		return j, j.badArgs("only command or argv can be given, not both"), nil
	}
	if !shell && a.Has("executable") {
		j.warnings = append(j.warnings, fmt.Sprintf("As of Ansible 2.4, the parameter 'executable' is no longer supported with the 'command' module. Not using '%s'.", a.Str("executable")))
	}
	if shell {
		sh := "/bin/sh"
		if a.Has("executable") {
			sh = a.Str("executable")
		}
		j.cmd, j.run = j.raw, shellRun(sh, j.raw)
		return j, nil, nil
	}
	if j.raw != "" {
		var err error
		if j.argv, err = shlex.Split(j.raw); err != nil {
			return j, nil, err
		}
	}
	cmd := make([]any, len(j.argv))
	words := make([]string, len(j.argv))
	for i, w := range j.argv {
		cmd[i] = w
		words[i] = shared.ExpandWord(w)
	}
	j.cmd, j.run = cmd, argvRun(words)
	return j, nil, nil
}

// badArgs is the failure, with rc 256, that Ansible gives when the
// command is missing or given twice; its empty stdout and stderr come
// with their (empty) lines, as Ansible's action adds them.
func (j commandJob) badArgs(msg string) *tasks.Result {
	data := j.data()
	data["rc"] = 256
	data["stdout_lines"], data["stderr_lines"] = []any{}, []any{}
	return &tasks.Result{Failed: true, Msg: msg, RC: 256, Data: data}
}

// data is the result data every outcome starts from: no output, rc or
// times, and the command as Ansible reports it.
func (j commandJob) data() map[string]any {
	return map[string]any{"stdout": "", "stderr": "", "rc": nil, "cmd": j.cmd, "start": nil, "end": nil, "delta": nil}
}

// script is the gate (chdir, creates, removes, check mode) followed,
// outside check mode, by the part that runs the command.
func (j commandJob) script() string {
	var s strings.Builder
	s.WriteString(gateScript(j.a, "_t_glob", true, j.check))
	if !j.check {
		s.WriteString(j.run)
	}
	return s.String()
}

// stdin is what the command reads: stdin, with a newline added when
// stdin_add_newline is set, or nothing when stdin is not given.
func (j commandJob) stdin() io.Reader {
	var stdin *strings.Reader
	if j.a.Has("stdin") {
		in := j.a.Str("stdin")
		if j.a.Bool("stdin_add_newline") {
			in += "\n"
		}
		stdin = strings.NewReader(in)
	}
	return shared.NilReader(stdin)
}

// result turns the script's output into what Ansible's command or shell
// returns, following the verdict (tender=...) on the first line of
// stdout; start and end are the times taken around the run.
func (j commandJob) result(out transport.Result, start, end time.Time) tasks.Result {
	first, rest, _ := strings.Cut(string(out.Stdout), "\n")
	verb, _ := strings.CutPrefix(first, "tender=")
	data := j.data()
	res := tasks.Result{Warnings: j.warnings}
	switch verb {
	case "chdir":
		return j.chdirFailed(rest, data)
	case "creates", "removes":
		return j.skipped(verb, res, data)
	case "check":
		data["rc"], data["stdout_lines"], data["stderr_lines"] = 0, []any{}, []any{}
		res.Msg, res.Data = "Command would have run if not in check mode", data
		data["msg"] = res.Msg
		if j.a.Has("creates") || j.a.Has("removes") {
			res.Changed = true
		} else {
			res.Skipped = true
		}
		return res
	case "notfound":
		return j.notFound()
	case "run":
		return j.ran(out, rest, start, end, res, data)
	}
	return tasks.Result{Failed: true, Msg: shared.ScriptError(out), RC: out.ExitCode, Data: data}
}

// chdirFailed is Ansible's failure when the script could not change to
// chdir; rest holds the errno the script printed.
func (j commandJob) chdirFailed(rest string, data map[string]any) tasks.Result {
	why := map[string]string{"2": "No such file or directory", "20": "Not a directory", "13": "Permission denied"}
	code := shared.ParseVerdict([]byte(rest))["err"]
	msg := fmt.Sprintf("Unable to change directory before execution: [Errno %s] %s: b'%s'", code, why[code], j.a.Str("chdir"))
	data["rc"], data["stdout_lines"], data["stderr_lines"], data["msg"] = nil, []any{}, []any{}, msg
	return tasks.Result{Failed: true, Msg: msg, Data: data}
}

// skipped is the result when creates or removes (verb) says the command
// has already run: rc 0 and Ansible's message, nothing changed.
func (j commandJob) skipped(verb string, res tasks.Result, data map[string]any) tasks.Result {
	shoulda := "Did"
	if j.check {
		shoulda = "Would"
	}
	p, state := j.a.Str(verb), "exists"
	if verb == "removes" {
		state = "does not exist"
	}
	stdout := "skipped, since " + p + " " + state
	msg := fmt.Sprintf("%s not run command since '%s' %s", shoulda, p, state)
	data["rc"], data["stdout"], data["stdout_lines"], data["stderr_lines"] = 0, stdout, shared.Lines(stdout), []any{}
	data["msg"] = msg
	res.Msg, res.Stdout, res.Data = msg, stdout, data
	return res
}

// notFound is the failure when the program cannot be found: Python's
// exec failed before the command ran, so Ansible reports the command as
// given, and no times.
func (j commandJob) notFound() tasks.Result {
	nf := map[string]any{"cmd": j.cmd, "rc": 2, "stdout": "", "stderr": "", "stdout_lines": []any{}, "stderr_lines": []any{}}
	if j.raw != "" {
		nf["cmd"] = j.raw
	}
	return tasks.Result{Failed: true, RC: 2, Msg: fmt.Sprintf("[Errno 2] No such file or directory: b'%s'", j.argv[0]), Data: nf}
}

// ran is the result once the command has run: its rc, output (stdout
// after the verdict line) and times, failed when rc is not zero.
func (j commandJob) ran(out transport.Result, stdout string, start, end time.Time, res tasks.Result, data map[string]any) tasks.Result {
	stderr := string(out.Stderr)
	if j.a.Bool("strip_empty_ends") {
		stdout, stderr = strings.TrimRight(stdout, "\r\n"), strings.TrimRight(stderr, "\r\n")
	}
	data["rc"], data["stdout"], data["stderr"] = out.ExitCode, stdout, stderr
	data["stdout_lines"], data["stderr_lines"] = shared.Lines(stdout), shared.Lines(stderr)
	data["start"], data["end"], data["delta"] = shared.PyTime(start), shared.PyTime(end), shared.PyDelta(end.Sub(start))
	res.Changed, res.RC, res.Stdout, res.Stderr, res.Data = true, out.ExitCode, stdout, stderr, data
	if out.ExitCode != 0 {
		res.Failed, res.Msg = true, "non-zero return code"
	}
	data["msg"] = res.Msg
	return res
}

func (m *commandModule) Spec() *tasks.Spec {
	if m.shell {
		return shellArgs
	}
	return commandArgs
}
