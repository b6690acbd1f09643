package net

import (
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// What the git and subversion modules share: reading a failure their
// scripts reported (vcsFuncs) as ansible-core's modules report it, and
// hiding secrets in what they return.

// vcsFailure reads the failure a script of vcsFuncs reported, if any:
// a command that failed as run_command(check_rc=True) reports it
// (fail=rc), the module's own failure with the fields it named
// (fail=msg), a tool that was not found (fail=MESSAGE, from _t_need) or
// an executable that could not run (noexe=ERRNO, as Python's OSError).
// Fields that only the module knows (what it did so far) are its to add.
func vcsFailure(v shared.Verdict, b map[string]string, m vcsMask) (tasks.Result, bool) {
	argv := func() []string {
		s := strings.TrimSuffix(b["argv"], "\x00")
		if s == "" {
			return nil
		}
		words := strings.Split(s, "\x00")
		for i, w := range words {
			words[i] = m.word(w)
		}
		return words
	}
	d := map[string]any{}
	output := func(keys ...string) {
		for _, k := range keys {
			if s, ok := b[k]; ok {
				d[k], d[k+"_lines"] = s, shared.Lines(s)
			}
		}
	}
	switch {
	case v["noexe"] != "":
		words := argv()
		why := "No such file or directory"
		if v["noexe"] == "13" {
			why = "Permission denied"
		}
		d["rc"], d["cmd"] = vcsAtoi(v["noexe"]), shared.PyCleanArgs(words)
		d["stdout"], d["stderr"], d["stdout_lines"], d["stderr_lines"] = "", "", []any{}, []any{}
		prog := ""
		if len(words) > 0 {
			prog = words[0]
		}
		msg := "[Errno " + v["noexe"] + "] " + why + ": b" + shared.PyRepr(prog)
		return tasks.Result{Failed: true, Msg: msg, RC: d["rc"].(int), Data: d}, true
	case v["fail"] == "rc":
		rc := vcsAtoi(v["rc"])
		d["rc"], d["cmd"] = rc, shared.PyCleanArgs(argv())
		output("stdout", "stderr")
		msg := shared.PySanitize(strings.TrimRight(b["stderr"], " \t\n\r\f\v"))
		return tasks.Result{Failed: true, Msg: msg, RC: rc, Data: d}, true
	case v["fail"] == "msg":
		output("stdout", "stderr")
		if _, ok := v["rc"]; ok {
			d["rc"] = vcsAtoi(v["rc"])
		}
		if s, ok := b["cmd"]; ok {
			d["cmd"] = s
		} else if _, ok := b["argv"]; ok {
			l := []any{}
			for _, w := range argv() {
				l = append(l, w)
			}
			d["cmd"] = l
		}
		if s, ok := b["details"]; ok {
			d["details"] = s
		}
		return tasks.Result{Failed: true, Msg: b["msg"], Data: d}, true
	case v["fail"] != "":
		return shared.Fail(v["fail"]), true
	}
	return tasks.Result{}, false
}

func vcsAtoi(s string) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 1
	}
	return n
}

// vcsWarnings are the warnings a script printed (_v_warn), in order.
func vcsWarnings(b map[string]string) []string {
	var out []string
	for i := 1; ; i++ {
		s, ok := b["warn"+strconv.Itoa(i)]
		if !ok {
			return out
		}
		out = append(out, s)
	}
}

// vcsMask hides a secret in what a module returns: every form of it
// becomes ********, and alias (what the script said for a URL that holds
// it) becomes shown (the URL with its password hidden). With noLog, a
// text that is all secret becomes maskedValue, as Ansible hides the
// value of a no_log parameter.
type vcsMask struct {
	secrets            []string
	alias, real, shown string
	noLog              bool
}

// word is a command's word as the module gave it: the URL for its alias
// (pyCleanArgs hides the password as ansible-core does).
func (m vcsMask) word(w string) string {
	if m.alias == "" {
		return w
	}
	return strings.ReplaceAll(w, m.alias, m.real)
}

func (m vcsMask) text(s string) string {
	for _, p := range m.secrets {
		if m.noLog && s == p {
			return shared.MaskedValue
		}
	}
	if m.alias != "" {
		s = strings.ReplaceAll(s, m.alias, m.shown)
	}
	for _, p := range m.secrets {
		if p != "" {
			s = strings.ReplaceAll(s, p, "********")
		}
	}
	return s
}

func (m vcsMask) value(v any) any {
	switch x := v.(type) {
	case string:
		return m.text(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = m.value(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = m.value(e)
		}
		return out
	}
	return v
}

// result is r with the secret hidden in every text it holds.
func (m vcsMask) result(r tasks.Result) tasks.Result {
	if len(m.secrets) == 0 {
		return r
	}
	r.Msg, r.Stdout, r.Stderr, r.Diff = m.text(r.Msg), m.text(r.Stdout), m.text(r.Stderr), m.text(r.Diff)
	for i, w := range r.Warnings {
		r.Warnings[i] = m.text(w)
	}
	if r.Data != nil {
		r.Data = m.value(r.Data).(map[string]any)
	}
	return r
}
