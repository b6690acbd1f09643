// Package report turns a run's events into what people and programs read:
// Text prints what ansible-playbook prints (PLAY, TASK, ok/changed/failed
// lines, PLAY RECAP), JSON writes one event per line.
package report

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tender-sh/tender/internal/pytext"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/provision"
)

// width is the width of the banners, as ansible-playbook's default.
const width = 80

// Text returns an event handler printing to w in ansible-playbook's
// layout. With color, statuses are coloured as Ansible colours them (use
// it only on a terminal).
func Text(w io.Writer, color bool) func(provision.Event) {
	t := &text{w: w, color: color}
	return t.event
}

// TextVerbose is Text at -v verbosity (the count of -v): from 2 up each
// task's banner is followed by the task's path, from 3 up each connection
// a host opens is said, as ansible-playbook's default output does.
func TextVerbose(w io.Writer, color bool, verbosity int) func(provision.Event) {
	t := &text{w: w, color: color, verbosity: verbosity}
	return t.event
}

type text struct {
	w         io.Writer
	color     bool
	verbosity int
	yaml      bool // results as the yaml stdout callback writes them
	opts      TextOptions
	// task is the task that started; pending, that its banner is not
	// printed yet: with results hidden, a banner waits for a result that
	// shows.
	task    provision.Event
	pending bool
}

// TextOptions are the options of Ansible's default stdout callback
// (ansible.cfg's [defaults] display_skipped_hosts and the like); the
// zero value is its defaults.
type TextOptions struct {
	// Color paints statuses (use it only on a terminal); Verbosity is
	// the count of -v; YAML writes results as the yaml callback does.
	Color     bool
	Verbosity int
	YAML      bool
	// HideSkipped and HideOK leave out skipped and ok results
	// (display_skipped_hosts and display_ok_hosts false); a task's
	// banner then waits for a result that shows, and a task none of
	// whose results show has none.
	HideSkipped, HideOK bool
	// TaskPathOnFailure says the task's path before a failure below -vv
	// (show_task_path_on_failure).
	TaskPathOnFailure bool
	// FailedTo, when set, receives the failed and unreachable lines
	// (display_failed_stderr: stderr).
	FailedTo io.Writer
	// CheckModeMarkers marks the banners of plays and tasks in check
	// mode with " [CHECK MODE]", and a --check run with DRY RUN banners
	// before each playbook and after the recap (check_mode_markers).
	CheckModeMarkers bool
	// ShowCustomStats prints what set_stats recorded after the recap
	// (show_custom_stats).
	ShowCustomStats bool
}

// checkMark is what a banner of a play or task in check mode ends with.
func (t *text) checkMark(e provision.Event) string {
	if t.opts.CheckModeMarkers && e.CheckMode {
		return " [CHECK MODE]"
	}
	return ""
}

// dryRun prints the DRY RUN banner of a --check run.
func (t *text) dryRun(e provision.Event) {
	if t.opts.CheckModeMarkers && e.CheckMode {
		fmt.Fprintf(t.w, "\n%s\n", banner("DRY RUN"))
	}
}

// TextWith is Text with the default callback's options.
func TextWith(w io.Writer, o TextOptions) func(provision.Event) {
	t := &text{w: w, color: o.Color, verbosity: o.Verbosity, yaml: o.YAML, opts: o}
	return t.event
}

// failedW is where failure lines go.
func (t *text) failedW() io.Writer {
	if t.opts.FailedTo != nil {
		return t.opts.FailedTo
	}
	return t.w
}

// banner prints the started task's banner, unless it is out.
func (t *text) banner() {
	if !t.pending {
		return
	}
	t.pending = false
	kind := "TASK"
	if t.task.Handler {
		kind = "RUNNING HANDLER"
	}
	fmt.Fprintf(t.w, "\n%s\n", banner(kind+" ["+t.task.Task+"]"+t.checkMark(t.task)))
	if t.verbosity >= 2 && t.task.Path != "" {
		fmt.Fprintf(t.w, "task path: %s\n", taskPath(t.task.Path))
	}
}

// compact is a result on its line: Python's json.dumps, or YAML.
func (t *text) compact(m map[string]any) string {
	if t.yaml {
		return yamlResult(shown(m), t.verbosity)
	}
	return compact(m)
}

// verbose is a result shown on request (verboseResult), or YAML.
func (t *text) verbose(m map[string]any, debug, indent bool) string {
	if t.yaml {
		out := shown(m)
		if debug {
			cleanDebug(out)
		}
		return yamlResult(out, t.verbosity)
	}
	return verboseResult(m, debug, indent)
}

const (
	green    = "0;32"
	yellow   = "0;33"
	cyan     = "0;36"
	red      = "0;31"
	purple   = "0;35"
	darkGray = "1;30"
	blue     = "0;34"
	// Ansible's COLOR_UNREACHABLE and COLOR_WARN: bright red and
	// bright purple.
	brightRed    = "1;31"
	brightPurple = "1;35"
)

func (t *text) paint(code, s string) string {
	if !t.color {
		return s
	}
	return paint(code, s)
}

// DefaultColumns is the width Ansible's display wraps warnings to when
// its output is not a terminal.
const DefaultColumns = 79

// Warning is msg as Ansible's display shows a warning: "[WARNING]: " and
// the message, laid out by Python's textwrap in columns (on a terminal,
// Ansible's are its width less one, at least DefaultColumns).
func Warning(msg string, columns int) string {
	return pytext.Fill("[WARNING]: "+msg, columns)
}

// paint colours each line of s on its own, as Ansible's display does.
func paint(code, s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = "\x1b[" + code + "m" + l + "\x1b[0m"
	}
	return strings.Join(lines, "\n")
}

// Banner is s as ansible-playbook's banners show it: followed by stars up
// to the 80th column (three at least).
func Banner(s string) string { return banner(s) }

func banner(s string) string {
	return s + " " + strings.Repeat("*", max(3, width-len(s)-1))
}

func (t *text) event(e provision.Event) {
	switch e.Kind {
	case provision.PlayStart:
		fmt.Fprintf(t.w, "\n%s\n", banner("PLAY ["+e.Play+"]"+t.checkMark(e)))
	case provision.TaskStart:
		t.task, t.pending = e, true
		if !t.opts.HideSkipped && !t.opts.HideOK {
			t.banner()
		}
	case provision.HostResult:
		if e.Diff != "" {
			t.banner()
			fmt.Fprintln(t.w, strings.TrimRight(e.Diff, "\n")+"\n")
		}
		t.result(e)
	case provision.Warning:
		fmt.Fprintf(t.w, "%s\n", t.paint(brightPurple, Warning(e.Msg, DefaultColumns)))
	case provision.PlaybookStart:
		if t.verbosity >= 2 {
			fmt.Fprintf(t.w, "\n%s\n%s\n", banner("PLAYBOOK: "+filepath.Base(e.Path)), e.Msg)
		}
		t.dryRun(e)
	case provision.Connecting:
		if t.verbosity >= 3 {
			fmt.Fprintf(t.w, "%s\n", t.paint(blue, "<"+e.Host+"> "+e.Msg))
		}
	case provision.Output:
		// Live output (--live): the task's banner, then HOST | line as
		// the lines come.
		t.banner()
		fmt.Fprintf(t.w, "%s%s | %s\n", e.Host, stderrMark(e), e.Msg)
	case provision.ModuleUsed:
		if t.verbosity >= 3 {
			fmt.Fprintf(t.w, "%s\n", e.Msg)
		}
	case provision.NoHosts:
		fmt.Fprintf(t.w, "%s\n", t.paint(cyan, "skipping: no hosts matched"))
	case provision.NoHostsLeft:
		fmt.Fprintf(t.w, "\n%s\n", banner("NO MORE HOSTS LEFT"))
	case provision.PlaybookEnd:
		t.recap(e.Recap)
		t.dryRun(e)
	case provision.Retry:
		host := e.Host
		if e.Delegate != "" && e.Delegate != e.Host {
			host += " -> " + e.Delegate
		}
		fmt.Fprintf(t.w, "%s\n", t.paint(darkGray, fmt.Sprintf("FAILED - RETRYING: [%s]: %s (%d retries left).", host, e.Task, e.RetriesLeft)))
	case provision.Included:
		line := "included: " + e.Path + " for " + strings.Join(e.Hosts, ", ")
		if e.IsItem {
			line += " => (item=" + expr.Str(e.Item) + ")"
		}
		fmt.Fprintln(t.w, line)
	}
}

func (t *text) result(e provision.Event) {
	host := e.Host
	if e.Delegate != "" && e.Delegate != e.Host {
		// As Ansible, a task delegated to its own host shows no arrow.
		host += " -> " + e.Delegate
	}
	item := ""
	if e.IsItem {
		item = " => (item=" + expr.Str(e.Item) + ")"
	}
	if _, ok := e.Result["results"]; !ok {
		// A loop's result without its items (censored by no_log) shows
		// as a task's, as in Ansible.
		e.LoopDone = false
	}
	switch e.Status {
	case provision.StatusOK, provision.StatusChanged:
		if e.Status == provision.StatusOK && t.opts.HideOK && !e.Include {
			return
		}
		t.banner()
		if e.LoopDone || e.Include {
			// An include's success shows as its "included:" lines.
			return
		}
		code := green
		if e.Status == provision.StatusChanged {
			code = yellow
		}
		line := string(e.Status) + ": [" + host + "]" + item
		if e.Verbose {
			line += " => " + t.verbose(e.Result, e.Traits.Shows, e.Indent)
		}
		fmt.Fprintln(t.w, t.paint(code, line))
	case provision.StatusSkipped:
		// Ansible's skipping lines name the host only, never a delegate;
		// a verbose run shows the result after them.
		if t.opts.HideSkipped {
			return
		}
		t.banner()
		line := "skipping: [" + e.Host + "]"
		if e.IsItem {
			line += item + " "
		}
		if t.verbosity > 0 && e.Result != nil {
			res := e.Result
			if e.LoopDone {
				// The items were shown each on its line.
				res = maps.Clone(res)
				delete(res, "results")
			}
			line += " => " + t.verbose(res, e.Traits.Shows, t.verbosity > 2)
		}
		fmt.Fprintln(t.w, t.paint(cyan, line))
	case provision.StatusFailed:
		t.banner()
		t.exception(e.Result)
		res := e.Result
		debug := e.Traits.Shows
		raised := e.LoopDone && itemRaised(res)
		if debug {
			// As Ansible's callback: a debug result never says changed,
			// and one with a msg shows the msg alone (a loop's too,
			// whose results go, so that it is shown as a task's).
			res = maps.Clone(res)
			cleanDebug(res)
		}
		dump := t.compact
		if t.verbosity > 2 || e.Indent {
			// As Ansible's callback: from -vvv every result is indented,
			// and a result that asks to be shown (debug's own) always.
			dump = func(m map[string]any) string { return t.verbose(m, false, true) }
		}
		fw := t.failedW()
		if !e.IsItem && (!e.LoopDone || debug || raised) && t.opts.TaskPathOnFailure && t.verbosity < 2 && t.task.Path != "" {
			fmt.Fprintf(t.w, "task path: %s\n", taskPath(t.task.Path))
		}
		switch {
		case e.IsItem:
			fmt.Fprintln(fw, t.paint(red, "failed: ["+host+"] (item="+expr.Str(e.Item)+") => "+dump(res)))
		case !e.LoopDone:
			fmt.Fprintln(fw, t.paint(red, "fatal: ["+host+"]: FAILED! => "+dump(res)))
		case debug:
			fmt.Fprintln(fw, t.paint(red, "fatal: ["+host+"]: FAILED! => "+t.compact(res)))
		case raised:
			// Ansible's callback shows such a loop's failure as a task's.
			res = maps.Clone(res)
			delete(res, "results")
			if res["skipped"] == false {
				delete(res, "skipped")
			}
			fmt.Fprintln(fw, t.paint(red, "fatal: ["+host+"]: FAILED! => "+dump(res)))
		}
		if e.Ignored && !e.IsItem {
			fmt.Fprintln(t.w, t.paint(cyan, "...ignoring"))
		}
	case provision.StatusUnreachable:
		t.banner()
		fmt.Fprintln(t.failedW(), t.paint(brightRed, "fatal: ["+host+"]: UNREACHABLE! => "+t.compact(e.Result)))
		if e.Ignored && !e.IsItem {
			// ignore_unreachable
			fmt.Fprintln(t.w, t.paint(cyan, "...ignoring"))
		}
	}
}

func (t *text) recap(r *provision.Recap) {
	if r == nil {
		return
	}
	fmt.Fprintf(t.w, "\n%s\n", banner("PLAY RECAP"))
	hosts := append([]string(nil), r.Hosts...)
	sort.Strings(hosts)
	for _, h := range hosts {
		s := r.Stats[h]
		if *s == (provision.Stats{}) {
			continue
		}
		// As Ansible's hostcolor: the name painted, then padded as if the
		// colour codes took room.
		name := fmt.Sprintf("%-26s", h)
		if t.color {
			code := green
			switch {
			case s.Failed > 0 || s.Unreachable > 0:
				code = red
			case s.Changed > 0:
				code = yellow
			}
			name = fmt.Sprintf("%-37s", paint(code, h))
		}
		fmt.Fprintf(t.w, "%s : %s %s %s %s %s %s %s\n", name,
			t.count("ok", s.OK, green), t.count("changed", s.Changed, yellow),
			t.count("unreachable", s.Unreachable, brightRed), t.count("failed", s.Failed, red),
			t.count("skipped", s.Skipped, cyan), t.count("rescued", s.Rescued, green),
			t.count("ignored", s.Ignored, brightPurple))
	}
	fmt.Fprintln(t.w)
	if t.opts.ShowCustomStats && len(r.Custom) > 0 {
		t.customStats(r.Custom)
	}
}

// customStats prints set_stats' data as the default callback does: a
// CUSTOM STATS banner, each host's data on a line, then the run's.
func (t *text) customStats(custom map[string]map[string]any) {
	fmt.Fprintf(t.w, "\n%s\n", banner("CUSTOM STATS:"))
	keys := make([]string, 0, len(custom))
	for k := range custom {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	oneLine := func(m map[string]any) string {
		if t.yaml {
			return strings.ReplaceAll(yamlResult(m, t.verbosity), "\n", "")
		}
		b, err := marshal(m, " ")
		if err != nil {
			return fmt.Sprintf("%v", m)
		}
		return strings.ReplaceAll(string(b), "\n", "")
	}
	for _, k := range keys {
		if k != "_run" {
			fmt.Fprintf(t.w, "\t%s: %s\n", k, oneLine(custom[k]))
		}
	}
	if run, ok := custom["_run"]; ok {
		fmt.Fprintf(t.w, "\n\tRUN: %s\n", oneLine(run))
	}
	fmt.Fprintln(t.w)
}

func (t *text) count(name string, n int, code string) string {
	s := fmt.Sprintf("%s=%-4d", name, n)
	if n == 0 {
		return s
	}
	return t.paint(code, s)
}

// shown drops the keys Ansible leaves out of a printed result (warnings
// and deprecations are printed on lines of their own).
func shown(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		switch k {
		case "failed", "skipped", "_ansible_no_log", "warnings", "deprecations", "exception":
			// failed and skipped are what the line says (Ansible's
			// TaskResult.clean_copy drops them).
			continue
		}
		out[k] = v
	}
	return out
}

// compact is Python's json.dumps(sort_keys=True): ", " and ": " separators,
// and no HTML escaping of <, > and &.
func compact(m map[string]any) string {
	data, err := marshal(shown(m), "")
	if err != nil {
		return fmt.Sprintf("%v", m)
	}
	return string(data)
}

// debugShown are the keys a debug result with a msg keeps on display.
var debugShown = map[string]bool{"msg": true, "exception": true}

// verboseResult is a successful result as ansible-playbook prints it on
// request (debug, -v): json.dumps(sort_keys=True), with indent=4 when
// indent is set, one line otherwise; a loop item's result keeps the loop
// variables, as Ansible's does.
func verboseResult(m map[string]any, debug, indent bool) string {
	out := shown(m)
	if debug {
		cleanDebug(out)
	}
	if !indent {
		data, err := marshal(out, "")
		if err != nil {
			return fmt.Sprintf("%v", m)
		}
		return string(data)
	}
	data, err := marshal(out, "    ")
	if err != nil {
		return fmt.Sprintf("%v", m)
	}
	return string(data)
}

// cleanDebug leaves of a debug result only what it was asked to show, as
// Ansible's callbacks clean its results: a msg alone (with warnings and
// the like), or the variable without the status keys.
func cleanDebug(out map[string]any) {
	if _, ok := out["msg"]; ok {
		for k := range out {
			if !debugShown[k] && !strings.HasPrefix(k, "_") {
				delete(out, k)
			}
		}
	}
	for _, k := range []string{"changed", "skipped", "invocation", "skip_reason"} {
		delete(out, k)
	}
}

// taskPath turns a task's file:line:col into what ansible-playbook shows:
// the file's absolute path and the line.
func taskPath(p string) string {
	i := strings.LastIndexByte(p, ':')
	if i < 0 {
		return p
	}
	j := strings.LastIndexByte(p[:i], ':')
	if j < 0 {
		return p
	}
	file, line := p[:j], p[j+1:i]
	if abs, err := filepath.Abs(file); err == nil {
		file = abs
	}
	return file + ":" + line
}

// exception says the exception a failed result holds, as Ansible's
// callback does before the failure: its last line, or from -vvv all of it.
func (t *text) exception(r map[string]any) {
	exc, ok := r["exception"].(string)
	if !ok || exc == "" {
		return
	}
	if t.verbosity >= 3 {
		fmt.Fprintf(t.w, "%s\n", t.paint(red, "The full traceback is:\n"+strings.TrimRight(exc, "\n")))
		return
	}
	lines := strings.Split(strings.TrimSpace(exc), "\n")
	fmt.Fprintln(t.w, t.paint(red, "An exception occurred during task execution. To see the full traceback, use -vvv. The error was: "+lines[len(lines)-1]))
}

// itemRaised reports whether an item of a loop's result holds an
// exception (a ZeroDivisionError in its arguments).
func itemRaised(r map[string]any) bool {
	items, _ := r["results"].([]any)
	for _, it := range items {
		if m, ok := it.(map[string]any); ok && m["exception"] != nil {
			return true
		}
	}
	return false
}

// stderrMark sets a live stderr line apart from stdout's: "HOST stderr |
// line" against "HOST | line".
func stderrMark(e provision.Event) string {
	if e.Stderr {
		return " stderr"
	}
	return ""
}
