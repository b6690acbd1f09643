package shared

import (
	"context"
	_ "embed"
	"io"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
)

// Helpers shared by the system modules (user, group, authorized_key,
// hostname, sysctl, cron, getent, known_hosts, ...).

// RunWith runs script with secrets in its environment: transport.Wrap puts
// them in the script text sent on stdin, never on a command line.
func RunWith(ctx context.Context, env *tasks.Env, script string, vars map[string]string, stdin io.Reader) (transport.Result, error) {
	return env.Conn.Run(ctx, transport.Cmd{Script: script, Env: vars, Stdin: stdin})
}

// RunTailed runs a script whose output Tailed reads: its verdict lines,
// up to the OutMark line _t_tail prints when a command printed anything,
// are copied to the answer without a program on the host
// (transport.Cmd.LinesUntil).
func RunTailed(ctx context.Context, env *tasks.Env, script string, stdin io.Reader) (transport.Result, error) {
	return env.Conn.Run(ctx, transport.Cmd{Script: script, Stdin: stdin, LinesUntil: OutMark})
}

// The marker lines that separate a system script's verdict from the output
// of the commands it ran (printed by _t_tail).
const (
	OutMark = "__T_OUT__"
	ErrMark = "__T_ERR__"
)

// MarkVars sets the shell variables through which scripts print the
// markers Go splits their output at: $_t_cm (ContentMark), $_t_om
// (OutMark) and $_t_em (ErrMark). Scripts that print a marker start with it.
const MarkVars = "_t_cm=" + ContentMark + "\n_t_om=" + OutMark + "\n_t_em=" + ErrMark + "\n"

// Tailed splits a script's stdout into its verdict and the stdout and
// stderr of the commands it ran, which _t_tail printed after the verdict.
func Tailed(stdout []byte) (v Verdict, out, errOut string) {
	s := string(stdout)
	head, rest, _ := strings.Cut(s, "\n"+OutMark+"\n")
	out, errOut, _ = strings.Cut(rest, "\n"+ErrMark+"\n")
	return ParseVerdict([]byte(head)), out, errOut
}

// SysFailMsg is why a system module's script failed: the commands' stderr
// when one of them did (fail=rc), the script's own fail= text, or what
// it printed when it stopped unexpectedly; "" when it did not fail.
func SysFailMsg(res transport.Result, v Verdict, errOut string) string {
	switch {
	case v["fail"] == "rc":
		return errOut
	case v["fail"] != "":
		return v["fail"]
	case res.ExitCode != 0:
		return ScriptError(res)
	}
	return ""
}

// SysFuncs are the shell helpers of the system modules, with the
// script's temporary directory made at once. _t_run runs a command and
// appends its stdout and stderr to the files _t_tail prints; rc keeps
// its exit status. _t_ent looks up a passwd or group entry by name (or
// by number) through getent when there is one.
var SysFuncs = SysFuncsLazy + "_t_mk\n"

// SysFuncsLazy is SysFuncs without the temporary directory made at once:
// _t_run and _t_runin make it, a script that writes there itself calls
// _t_mk first, and a task that runs no command makes none.
var SysFuncsLazy = SysVars + TmpdFuncs + SysFuncsBody

// SysLib is SysFuncs as a Lib piece, for a script that makes its
// temporary directory only when it runs a command (_t_run, _t_runin) or
// calls _t_mk itself before it writes there: a task that finds nothing to
// do starts no mktemp and no rm. The script starts with SysVars, and
// its Lib has TmpdLib before SysLib.
var SysLib = RegisterLib(SysFuncsBody)[0]

// TmpdFuncs defines _t_tmpd VAR, which gives a script an empty scratch
// directory of its own in $VAR: in a frame of transport/ssh's persistent
// shell, made where the shell says the frame may keep one, which costs
// the host one mkdir; elsewhere one from mktemp, removed when the script
// exits (mktemp and rm). For a few files of a command's output, not for
// large ones: the persistent shell's directory is emptied only every 64
// frames.
//
//go:embed tmpd_funcs.sh
var TmpdFuncs string

// TmpdLib is TmpdFuncs as a Lib piece.
var TmpdLib = RegisterLib(TmpdFuncs)[0]

// SysVars are the values SysFuncs' helpers read: the output markers and
// no temporary directory yet.
const SysVars = MarkVars + "_t_d=\n"

//go:embed sys_funcs.sh
var SysFuncsBody string

// WithWarnings copies r's warnings into its data, where Ansible's modules
// return them (and register: keeps them) when there are any.
func WithWarnings(r tasks.Result) tasks.Result {
	if len(r.Warnings) > 0 {
		if r.Data == nil {
			r.Data = map[string]any{}
		}
		w := make([]any, len(r.Warnings))
		for i, s := range r.Warnings {
			w[i] = s
		}
		r.Data["warnings"] = w
	}
	return r
}

// SplitLinesKeep splits s after each \n, \r\n or \r, keeping the ends, as
// Python's splitlines(True) does for those.
func SplitLinesKeep(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			out = append(out, s)
			break
		}
		j := i + 1
		if s[i] == '\r' && j < len(s) && s[j] == '\n' {
			j++
		}
		out = append(out, s[:j])
		s = s[j:]
	}
	return out
}

// OutputData adds the commands' output to a result as Ansible does for
// a module that returns stdout or stderr: with the _lines lists beside,
// and only when not empty.
func OutputData(d map[string]any, out, errOut string) {
	if out != "" {
		d["stdout"], d["stdout_lines"] = out, Lines(out)
	}
	if errOut != "" {
		d["stderr"], d["stderr_lines"] = errOut, Lines(errOut)
	}
}
