package commands

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
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

// Run runs the command once, unless creates/removes say it has already run.
func (m *commandModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	spec := commandArgs
	if m.shell {
		spec = shellArgs
	}
	a, err := spec.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	raw := a.Str("_raw_params")
	if raw == "" {
		raw = a.Str("cmd")
	}
	argv := a.Strings("argv")
	data := map[string]any{"stdout": "", "stderr": "", "rc": nil, "cmd": nil, "start": nil, "end": nil, "delta": nil}
	fail := func(rc int, msg string) (tasks.Result, error) {
		data["rc"] = rc
		return tasks.Result{Failed: true, Msg: msg, RC: rc, Data: data}, nil
	}
	if strings.TrimSpace(raw) == "" && len(argv) == 0 {
		return fail(256, "no command given")
	}
	if raw != "" && len(argv) > 0 {
		return fail(256, "only command or argv can be given, not both")
	}
	var res tasks.Result
	if !m.shell && a.Has("executable") {
		res.Warnings = append(res.Warnings, fmt.Sprintf("As of Ansible 2.4, the parameter 'executable' is no longer supported with the 'command' module. Not using '%s'.", a.Str("executable")))
	}
	var run string
	if m.shell {
		data["cmd"] = raw
		sh := "/bin/sh"
		if a.Has("executable") {
			sh = a.Str("executable")
		}
		run = shellRun(sh, raw)
	} else {
		if raw != "" {
			if argv, err = shared.ShlexSplit(raw); err != nil {
				return tasks.Result{}, err
			}
		}
		cmd := make([]any, len(argv))
		words := make([]string, len(argv))
		for i, w := range argv {
			cmd[i] = w
			words[i] = shared.ExpandWord(w)
		}
		data["cmd"] = cmd
		run = argvRun(words)
	}

	var s strings.Builder
	s.WriteString(gateScript(a, "_t_glob", true, env.Check))
	if !env.Check {
		s.WriteString(run)
	}

	var stdin *strings.Reader
	if a.Has("stdin") {
		in := a.Str("stdin")
		if a.Bool("stdin_add_newline") {
			in += "\n"
		}
		stdin = strings.NewReader(in)
	}
	start := time.Now()
	out, err := shared.Run(ctx, env, s.String(), shared.NilReader(stdin))
	end := time.Now()
	if err != nil {
		return tasks.Result{}, err
	}
	first, rest, _ := strings.Cut(string(out.Stdout), "\n")
	verb, _ := strings.CutPrefix(first, "tender=")
	shoulda := "Did"
	if env.Check {
		shoulda = "Would"
	}
	skip := func(stdout, msg string) (tasks.Result, error) {
		data["rc"], data["stdout"], data["stdout_lines"], data["stderr_lines"] = 0, stdout, shared.Lines(stdout), []any{}
		res.Msg, res.Stdout, res.Data = msg, stdout, data
		data["msg"] = msg
		return res, nil
	}
	switch verb {
	case "chdir":
		why := map[string]string{"2": "No such file or directory", "20": "Not a directory", "13": "Permission denied"}
		code := shared.ParseVerdict([]byte(rest))["err"]
		r, err := fail(0, fmt.Sprintf("Unable to change directory before execution: [Errno %s] %s: b'%s'", code, why[code], a.Str("chdir")))
		data["rc"], data["stdout_lines"], data["stderr_lines"] = nil, []any{}, []any{}
		r.Data["msg"] = r.Msg
		return r, err
	case "creates":
		c := a.Str("creates")
		return skip("skipped, since "+c+" exists", fmt.Sprintf("%s not run command since '%s' exists", shoulda, c))
	case "removes":
		r := a.Str("removes")
		return skip("skipped, since "+r+" does not exist", fmt.Sprintf("%s not run command since '%s' does not exist", shoulda, r))
	case "check":
		data["rc"], data["stdout_lines"], data["stderr_lines"] = 0, []any{}, []any{}
		res.Msg, res.Data = "Command would have run if not in check mode", data
		data["msg"] = res.Msg
		if a.Has("creates") || a.Has("removes") {
			res.Changed = true
		} else {
			res.Skipped = true
		}
		return res, nil
	case "notfound":
		// Python's exec failed before the command ran: Ansible reports the
		// command as given, and no times.
		nf := map[string]any{"cmd": data["cmd"], "rc": 2, "stdout": "", "stderr": "", "stdout_lines": []any{}, "stderr_lines": []any{}}
		if raw != "" {
			nf["cmd"] = raw
		}
		return tasks.Result{Failed: true, RC: 2, Msg: fmt.Sprintf("[Errno 2] No such file or directory: b'%s'", argv[0]), Data: nf}, nil
	case "run":
	default:
		return tasks.Result{Failed: true, Msg: shared.ScriptError(out), RC: out.ExitCode, Data: data}, nil
	}
	stdout, stderr := rest, string(out.Stderr)
	if a.Bool("strip_empty_ends") {
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
	return res, nil
}

func (m *commandModule) Spec() *tasks.Spec {
	if m.shell {
		return shellArgs
	}
	return commandArgs
}
