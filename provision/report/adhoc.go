package report

import (
	"fmt"
	"io"
	"maps"
	"math"
	"strings"

	"github.com/tender-sh/tender/provision"
)

// AdHocOptions shape the output of AdHoc.
type AdHocOptions struct {
	// OneLine prints each result on one line, as `ansible -o` does
	// (Ansible's oneline callback); otherwise as its minimal callback.
	OneLine bool
	// Color paints statuses as Ansible colours them (a terminal only).
	Color bool
	// Verbosity is the count of -v: from 3 up, a result keeps its
	// invocation and diff, as Ansible shows them.
	Verbosity int
	// Warnings, when set, receives the "[WARNING]: …" lines (Ansible
	// prints them on stderr); nil prints them on w.
	Warnings io.Writer
}

// AdHoc returns an event handler printing to w what the ansible command
// prints for a one-task run: "host | CHANGED => {…}", "host | SUCCESS
// => {…}", "host | FAILED! => {…}", "host | UNREACHABLE! => {…}",
// "host | SKIPPED", and for command, shell and raw "host | CHANGED |
// rc=0 >>" followed by the output; with OneLine, each on one line. It
// prints no banners and no recap.
func AdHoc(w io.Writer, opts AdHocOptions) func(provision.Event) {
	a := &adhoc{text: text{w: w, color: opts.Color}, opts: opts}
	return a.event
}

type adhoc struct {
	text
	opts AdHocOptions
}

func (a *adhoc) event(e provision.Event) {
	switch e.Kind {
	case provision.Warning:
		w := a.opts.Warnings
		if w == nil {
			w = a.w
		}
		fmt.Fprintf(w, "%s\n", a.paint(brightPurple, Warning(e.Msg, DefaultColumns)))
	case provision.HostResult:
		if e.IsItem {
			return
		}
		if e.Diff != "" {
			fmt.Fprintln(a.w, strings.TrimRight(e.Diff, "\n")+"\n")
		}
		a.result(e)
	case provision.Output:
		// --live: the command's lines as they come, before its result.
		fmt.Fprintf(a.w, "%s%s | %s\n", e.Host, stderrMark(e), e.Msg)
	}
}

func (a *adhoc) result(e provision.Event) {
	host := e.Host
	r := e.Result
	switch e.Status {
	case provision.StatusOK, provision.StatusChanged:
		state, code := "SUCCESS", green
		if changed, _ := r["changed"].(bool); changed || e.Status == provision.StatusChanged {
			state, code = "CHANGED", yellow
		}
		if e.Traits.Shows && !a.opts.OneLine {
			// minimal cleans debug's result; oneline shows it whole
			r = maps.Clone(r)
			cleanDebug(r)
		}
		if _, async := r["ansible_job_id"]; e.Traits.TextOutput && !async {
			a.print(code, a.commandMsg(host, state, r))
			return
		}
		a.print(code, host+" | "+state+" => "+a.dump(r, e.Indent))
	case provision.StatusSkipped:
		a.print(cyan, host+" | SKIPPED")
	case provision.StatusFailed:
		if _, ok := r["module_stderr"]; e.Traits.TextOutput && !ok && !a.opts.OneLine {
			a.print(red, a.commandMsg(host, "FAILED", r))
			return
		}
		a.print(red, host+" | FAILED! => "+a.dump(r, e.Indent))
	case provision.StatusUnreachable:
		if a.opts.OneLine {
			msg, _ := r["msg"].(string)
			a.print(brightRed, host+" | UNREACHABLE!: "+msg)
			return
		}
		a.print(brightRed, host+" | UNREACHABLE! => "+a.dump(r, e.Indent))
	}
}

// print writes s as Ansible's display does: a final newline added unless
// s has one.
func (a *adhoc) print(code, s string) {
	fmt.Fprint(a.w, a.paint(code, strings.TrimSuffix(s, "\n"))+"\n")
}

// commandMsg is a command's result as its output: "host | STATE | rc=N
// >>" then stdout, stderr and msg run together; with OneLine, "host |
// STATE | rc=N | (stdout) …" with newlines escaped, and "(stderr) …" when
// there is any.
func (a *adhoc) commandMsg(host, state string, r map[string]any) string {
	rc := rcString(r)
	stdout, _ := r["stdout"].(string)
	stderr, _ := r["stderr"].(string)
	if a.opts.OneLine {
		esc := strings.NewReplacer("\n", `\n`, "\r", `\r`)
		s := fmt.Sprintf("%s | %s | rc=%s | (stdout) %s", host, state, rc, esc.Replace(stdout))
		if stderr != "" {
			s += " (stderr) " + esc.Replace(stderr)
		}
		return s
	}
	msg, _ := r["msg"].(string)
	return fmt.Sprintf("%s | %s | rc=%s >>\n%s%s%s\n", host, state, rc, stdout, stderr, msg)
}

// rcString is a result's rc as Python prints it, -1 when there is none.
func rcString(r map[string]any) string {
	switch v := r["rc"].(type) {
	case nil:
		return "-1"
	case float64:
		if v == math.Trunc(v) {
			return fmt.Sprintf("%d", int64(v))
		}
	}
	return fmt.Sprint(r["rc"])
}

// dump is a result as Ansible's callbacks dump it: internal keys, the
// exception, and below -vvv the invocation and the diff left out; keys
// sorted, 4-space indent, or on one line with OneLine: Python's indent=0
// with its newlines removed, or indent=4 with them removed for a result
// that asks to be shown (verbose) and from -vvv.
func (a *adhoc) dump(r map[string]any, verbose bool) string {
	out := shown(r)
	delete(out, "exception")
	for k := range out {
		if strings.HasPrefix(k, "_ansible_") {
			delete(out, k)
		}
	}
	if a.opts.Verbosity < 3 {
		delete(out, "invocation")
		delete(out, "diff")
	}
	data, err := marshal(out, "    ")
	if err != nil {
		return fmt.Sprintf("%v", r)
	}
	if !a.opts.OneLine {
		return string(data)
	}
	if verbose || a.opts.Verbosity > 2 {
		return strings.ReplaceAll(string(data), "\n", "")
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, " ")
	}
	return strings.Join(lines, "")
}
