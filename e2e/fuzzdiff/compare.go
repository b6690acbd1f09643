package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/pyre"
)

// volatile are result keys whose values differ between any two runs (times,
// inode numbers, owners, the controller's temp paths, the callback's
// ids) or are the tool's internals: they are never compared.
var volatile = map[string]bool{
	"invocation": true, "delta": true, "start": true, "end": true, "duration": true,
	"atime": true, "mtime": true, "ctime": true, "inode": true, "dev": true,
	"uid": true, "gid": true, "owner": true, "group": true, "pw_name": true, "gr_name": true,
	"src": true, "warnings": true, "deprecations": true, "id": true,
	"diff": true, "secontext": true, "attributes": true, "version": true,
}

// essential are result keys compared even when only one tool returned
// them; any other key one tool alone returns is left out, so a result's
// extra fields are not divergences but its missing essentials are.
var essential = map[string]bool{
	"changed": true, "failed": true, "skipped": true, "rc": true, "stdout": true,
	"stderr": true, "msg": true, "results": true, "item": true, "ansible_facts": true,
	"ansible_loop_var": true, "ansible_index_var": true, "stat": true, "exists": true,
	"assertion": true, "evaluated_to": true, "state": true, "mode": true,
	"path": true, "dest": true, "unreachable": true, "stdout_lines": true,
}

// Compare lists the differences between two sides' runs of one case: the
// exit codes, each host's recap, each task's result on each host, and the
// end states of the work directories. No difference gives nil.
func Compare(a, t *Side) []string {
	var d []string
	if a.TimedOut || t.TimedOut {
		d = append(d, fmt.Sprintf("timeout: ansible %v, tender %v", a.TimedOut, t.TimedOut))
	}
	if a.Exit != t.Exit {
		d = append(d, fmt.Sprintf("exit: ansible %d, tender %d", a.Exit, t.Exit)+crash(a)+crash(t)+selfContradiction(a)+moduleCrash(a))
	}
	if (a.JSON == nil) != (t.JSON == nil) {
		d = append(d, fmt.Sprintf("json: ansible %v, tender %v", a.JSON != nil, t.JSON != nil)+
			callbackFailure(a)+callbackFailure(t)+crash(a)+crash(t))
	}
	// A file whose content names the side's directory (a command's
	// "skipped, since DIR/f does not exist" copied into it) differs in
	// its checksums only because the two directories differ.
	as, ts := normaliseLines(a.State, a.Dir), normaliseLines(t.State, t.Dir)
	dirInContent := !slices.Equal(as, a.State) || !slices.Equal(ts, t.State)
	if a.JSON != nil && t.JSON != nil {
		aj, tj := normalise(a.JSON, a.Dir), normalise(t.JSON, t.Dir)
		for _, line := range compareStats(aj, tj) {
			d = append(d, line+moduleCrash(a))
		}
		for _, line := range compareTasks(aj, tj) {
			if dirInContent && contentHashRE.MatchString(line) {
				continue
			}
			if taskListsPartRE.MatchString(line) {
				// after a module of Ansible's crashed, the host ran no
				// more tasks there
				line += moduleCrash(a)
			}
			d = append(d, line)
		}
	}
	// A crash stops ansible-playbook where it is: the files tender made
	// after that point have no counterpart, and the crash is reported.
	if crash(a) == "" {
		d = append(d, diffLines("state", as, ts)...)
	}
	return d
}

// taskListsPartRE finds where the two runs' task lists part.
var taskListsPartRE = regexp.MustCompile(`^task \d+: (only \w+ ran|ansible ran) `)

// contentHashRE finds a result's difference in a hash of a file's
// content (copy's and stat's checksum and md5sum).
var contentHashRE = regexp.MustCompile(`\.(checksum|md5sum|stat\.checksum|stat\.md5)(\[\d+\])?: ansible "[0-9a-f]+", tender "[0-9a-f]+"$`)

// normaliseLines is lines with dir written <DIR>.
func normaliseLines(lines []string, dir string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.ReplaceAll(l, dir, "<DIR>")
	}
	return out
}

// callbackFailureRE finds ansible-playbook's warning that its stdout
// callback failed (the json callback's output is then cut short); the
// warning wraps over lines.
var callbackFailureRE = regexp.MustCompile(`\[WARNING\]: Failure using method \((\w+)\) in callback plugin\s+\(<[^>]*>\):\s+((?:.|\n)*?)(?:\n\[|\n*$)`)

// callbackFailure says why a side wrote no JSON when its callback failed
// (" (ansible's callback failed in v2_playbook_on_stats: …)"), and is
// empty otherwise: a tool's own failure to write JSON is then told from
// a divergence of tender's.
func callbackFailure(s *Side) string {
	if s.JSON != nil {
		return ""
	}
	m := callbackFailureRE.FindStringSubmatch(s.Stderr)
	if m == nil {
		return ""
	}
	why := strings.Join(strings.Fields(m[2]), " ")
	return fmt.Sprintf(" (%s's callback failed in %s: %s)", s.Tool, m[1], why)
}

// selfContradiction notes when ansible-playbook's exit status is not the
// one its own recap calls for (a host failed, yet it exits 0; none did,
// yet it exits 2), which happens after meta end_host or end_play in a
// block's rescue or always section; empty otherwise, and when there is
// no recap.
func selfContradiction(a *Side) string {
	stats, ok := get(a.JSON, "stats").(map[string]any)
	if !ok {
		return ""
	}
	failed, unreachable := false, false
	for _, h := range stats {
		if n, _ := get(h, "failures").(float64); n > 0 {
			failed = true
		}
		if n, _ := get(h, "unreachable").(float64); n > 0 {
			unreachable = true
		}
	}
	if failed && a.Exit != 2 && a.Exit != 4 || !failed && !unreachable && a.Exit == 2 {
		return " (ansible's exit disagrees with its recap)"
	}
	return ""
}

// crashRE finds ansible-playbook's report of an exception it did not
// expect (it exits 250, its JSON cut short).
var crashRE = regexp.MustCompile(`ERROR! Unexpected Exception, this is probably a bug: (.*)`)

// crash says that a side crashed and why (" (ansible crashed: …)"), and
// is empty otherwise: a crash of Ansible's own is told from a divergence.
func crash(s *Side) string {
	m := crashRE.FindStringSubmatch(s.Stderr)
	if m == nil {
		return ""
	}
	return fmt.Sprintf(" (%s crashed: %s)", s.Tool, strings.TrimSpace(m[1]))
}

// moduleCrash says that one of Ansible's modules crashed in the run
// (" (ansible's module lineinfile crashed: FileNotFoundError: …)", its
// result "MODULE FAILURE" with the traceback), and is empty otherwise:
// the exit status and recap that follow from a bug of Ansible's module
// are told from a divergence.
func moduleCrash(a *Side) string {
	for _, p := range list(get(a.JSON, "plays")) {
		for _, t := range list(get(p, "tasks")) {
			hosts, _ := get(t, "hosts").(map[string]any)
			for _, h := range slices.Sorted(maps.Keys(hosts)) {
				if c := resultCrash(hosts[h]); c != "" {
					return c
				}
			}
		}
	}
	return ""
}

// resultCrash is moduleCrash for one result of Ansible's: the result's
// own differences carry it too.
func resultCrash(r any) string {
	msg, _ := get(r, "msg").(string)
	exc, _ := get(r, "exception").(string)
	if !strings.HasPrefix(msg, "MODULE FAILURE") || exc == "" {
		return ""
	}
	action, _ := get(r, "action").(string)
	return fmt.Sprintf(" (ansible's module %s crashed: %s)", action, lastLine(exc))
}

func compareStats(a, t any) []string {
	as, _ := get(a, "stats").(map[string]any)
	ts, _ := get(t, "stats").(map[string]any)
	var d []string
	for _, h := range keys(as, ts) {
		if !reflect.DeepEqual(as[h], ts[h]) {
			d = append(d, fmt.Sprintf("recap %s: ansible %s, tender %s", h, recap(as[h]), recap(ts[h])))
		}
	}
	return d
}

func recap(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return "none"
	}
	var parts []string
	for _, k := range []string{"ok", "changed", "unreachable", "failures", "skipped", "rescued", "ignored"} {
		parts = append(parts, fmt.Sprintf("%s=%v", k, m[k]))
	}
	return strings.Join(parts, " ")
}

// compareTasks compares the plays' tasks in order; once the two runs'
// task lists part (a different task name), the rest is not compared.
func compareTasks(a, t any) []string {
	var at, tt []any
	for _, p := range list(get(a, "plays")) {
		at = append(at, list(get(p, "tasks"))...)
	}
	for _, p := range list(get(t, "plays")) {
		tt = append(tt, list(get(p, "tasks"))...)
	}
	at, tt = dedupStarts(at), dedupStarts(tt)
	refile(at, tt)
	var d []string
	for i := 0; i < len(at) || i < len(tt); i++ {
		if i >= len(at) || i >= len(tt) {
			var extra any
			who := "ansible"
			if i < len(at) {
				extra = at[i]
			} else {
				extra, who = tt[i], "tender"
			}
			d = append(d, fmt.Sprintf("task %d: only %s ran %q", i, who, get(get(extra, "task"), "name")))
			break
		}
		an, tn := get(get(at[i], "task"), "name"), get(get(tt[i], "task"), "name")
		if an != tn {
			d = append(d, fmt.Sprintf("task %d: ansible ran %q, tender %q", i, an, tn))
			break
		}
		ah, _ := get(at[i], "hosts").(map[string]any)
		th, _ := get(tt[i], "hosts").(map[string]any)
		for _, h := range keys(ah, th) {
			prefix := fmt.Sprintf("task %d %q %s", i, an, h)
			switch {
			case ah[h] == nil:
				d = append(d, prefix+": tender only")
			case th[h] == nil:
				d = append(d, prefix+": ansible only")
			default:
				lines := diffValue(prefix, ah[h], th[h])
				for i := range lines {
					lines[i] += resultCrash(ah[h])
				}
				d = append(d, lines...)
			}
		}
	}
	return d
}

// refile moves back a host's result that Ansible's json callback filed
// under the wrong task: when a flush_handlers runs handlers on some hosts
// only, the others go on with the next task meanwhile, and their results
// land in the entry of the handler that started last. A result in
// Ansible's entry i whose action is not the one tender's entry i has for
// every host, and that tender has under a later task j for that host
// with that action, where Ansible has none, moves to Ansible's entry j.
// Entries are aligned by index, as compareTasks reads them.
func refile(at, tt []any) {
	for i := 0; i < len(at) && i < len(tt); i++ {
		ah, _ := get(at[i], "hosts").(map[string]any)
		th, _ := get(tt[i], "hosts").(map[string]any)
		own := ""
		for _, r := range th {
			a, _ := get(r, "action").(string)
			if own != "" && a != own {
				own = ""
				break
			}
			own = a
		}
		if own == "" {
			continue
		}
		for h, r := range ah {
			act, _ := get(r, "action").(string)
			if act == own || th[h] != nil {
				continue
			}
			for j := i + 1; j < len(at) && j < len(tt); j++ {
				aj, _ := get(at[j], "hosts").(map[string]any)
				tj, _ := get(tt[j], "hosts").(map[string]any)
				if aj == nil || aj[h] != nil || tj[h] == nil || get(tj[h], "action") != act {
					continue
				}
				aj[h] = r
				delete(ah, h)
				break
			}
		}
	}
}

// dedupStarts leaves out a task entry with no host results that repeats
// the task before it (the same name and path): a meta task's start is
// recorded once per host by one tool and once by the other, for some
// meta actions.
func dedupStarts(ts []any) []any {
	var out []any
	for i, t := range ts {
		h, _ := get(t, "hosts").(map[string]any)
		task, prev := get(t, "task"), any(nil)
		if i > 0 {
			prev = get(ts[i-1], "task")
		}
		if len(h) == 0 && prev != nil && get(task, "name") == get(prev, "name") && get(task, "path") == get(prev, "path") {
			continue
		}
		out = append(out, t)
	}
	return out
}

// diffValue compares two results: maps key by key (volatile keys left out,
// one-sided keys only when essential), lists element by element, other
// values by their JSON.
func diffValue(path string, a, t any) []string {
	am, aok := a.(map[string]any)
	tm, tok := t.(map[string]any)
	if aok && tok {
		var d []string
		for _, k := range keys(am, tm) {
			if volatile[k] || strings.HasPrefix(k, "_ansible") {
				continue
			}
			av, ain := am[k]
			tv, tin := tm[k]
			switch {
			case ain && tin && k == "exception":
				// A Python traceback's frames are Ansible's code, not
				// behaviour: the exception it ends with is compared.
				d = append(d, diffValue(path+"."+k, lastLine(av), lastLine(tv))...)
			case ain && tin:
				d = append(d, diffValue(path+"."+k, av, tv)...)
			case essential[k] && ain:
				d = append(d, fmt.Sprintf("%s.%s: ansible %s, tender absent", path, k, show(av)))
			case essential[k] && tin:
				d = append(d, fmt.Sprintf("%s.%s: ansible absent, tender %s", path, k, show(tv)))
			}
		}
		return d
	}
	al, aok := a.([]any)
	tl, tok := t.([]any)
	if aok && tok && len(al) == len(tl) {
		var d []string
		for i := range al {
			d = append(d, diffValue(fmt.Sprintf("%s[%d]", path, i), al[i], tl[i])...)
		}
		return d
	}
	if sa, st := show(a), show(t); sa != st {
		return []string{fmt.Sprintf("%s: ansible %s, tender %s", path, sa, st)}
	}
	return nil
}

// lastLine is the last line of a string that is not empty (the
// exception a Python traceback ends with); another value as it is.
func lastLine(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func show(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// normalise replaces the side's directory in every string with <DIR>.
func normalise(v any, dir string) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[strings.ReplaceAll(k, dir, "<DIR>")] = normalise(e, dir)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, e := range v {
			l[i] = normalise(e, dir)
		}
		return l
	case string:
		return sortBooleans(strings.ReplaceAll(v, dir, "<DIR>"))
	}
	return v
}

// booleansRE finds the listing of the valid booleans in Ansible's error
// for a value that is not one: Python prints its set of them in an order
// that changes from one process to the next.
var booleansRE = regexp.MustCompile(`(Valid booleans include: )((?:'[^']*'|[\w.]+)(?:, (?:'[^']*'|[\w.]+))*)`)

// sortBooleans sorts each listing of the valid booleans in s, so that two
// runs that list the same set compare equal.
func sortBooleans(s string) string {
	return booleansRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := booleansRE.FindStringSubmatch(m)
		items := strings.Split(sub[2], ", ")
		sort.Strings(items)
		return sub[1] + strings.Join(items, ", ")
	})
}

func diffLines(what string, a, t []string) []string {
	in := func(l []string) map[string]bool {
		m := map[string]bool{}
		for _, s := range l {
			m[s] = true
		}
		return m
	}
	am, tm := in(a), in(t)
	var d []string
	for _, s := range a {
		if !tm[s] {
			d = append(d, fmt.Sprintf("%s: ansible only: %s", what, s))
		}
	}
	for _, s := range t {
		if !am[s] {
			d = append(d, fmt.Sprintf("%s: tender only: %s", what, s))
		}
	}
	return d
}

func get(v any, k string) any {
	m, _ := v.(map[string]any)
	return m[k]
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func keys(a, b map[string]any) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]any{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Known is a known difference: lines that match it are not divergences
// (a case diverges when a difference that no Known matches remains).
type Known struct {
	Title string
	// Match is in Python's syntax, so that it may use back-references
	// (a value that must be the same on both sides).
	Match *pyre.Regexp
	// Cascade: a task's line it matches explains every difference of
	// that task and the later ones, and of the recap, exit status and
	// end state (a value that differs changes what reads it).
	Cascade bool
}

// knownRE finds the entries of DIFFERENCES.md: a "## " heading, and in
// its section a line "Match: `REGEX`" or "Cascade: `REGEX`".
var knownRE = regexp.MustCompile("(?m)^(Match|Cascade): `([^`]+)`")

// ParseKnown reads the known differences out of the text of DIFFERENCES.md.
func ParseKnown(text string) ([]Known, error) {
	var out []Known
	title := ""
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "## ") {
			title = strings.TrimPrefix(line, "## ")
		}
		if m := knownRE.FindStringSubmatch(line); m != nil {
			re, err := pyre.Compile(m[2], pyre.Options{})
			if err != nil {
				return nil, fmt.Errorf("DIFFERENCES %q: %w", title, err)
			}
			out = append(out, Known{Title: title, Match: re, Cascade: m[1] == "Cascade"})
		}
	}
	return out, nil
}

// Unknown is the differences that no known difference matches, nor
// follows from (see Known.Cascade).
func Unknown(diffs []string, known []Known) []string {
	from := cascadeFrom(diffs, known)
	var out []string
	for _, d := range diffs {
		if from >= 0 && follows(d, from) {
			continue
		}
		matched := false
		for _, k := range known {
			if at, err := k.Match.Search(d); err == nil && at != nil {
				matched = true
				break
			}
		}
		if !matched {
			out = append(out, d)
		}
	}
	return out
}

// taskNumberRE reads the task number of a task's difference.
var taskNumberRE = regexp.MustCompile(`^task (\d+)[ :]`)

// cascadeFrom is the first task whose difference a cascading known
// difference matches, or -1.
func cascadeFrom(diffs []string, known []Known) int {
	from := -1
	for _, d := range diffs {
		m := taskNumberRE.FindStringSubmatch(d)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		for _, k := range known {
			if at, err := k.Match.Search(d); k.Cascade && err == nil && at != nil && (from < 0 || n < from) {
				from = n
			}
		}
	}
	return from
}

// follows reports whether the difference d comes at or after task from,
// or is one of the run's totals (recap, exit status, end state).
func follows(d string, from int) bool {
	if m := taskNumberRE.FindStringSubmatch(d); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n >= from
	}
	return strings.HasPrefix(d, "recap ") || strings.HasPrefix(d, "exit:") || strings.HasPrefix(d, "state")
}
