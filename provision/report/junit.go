package report

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/provision"
)

// JUnit returns an event handler that writes to w, when the run ends, a
// JUnit XML report in the layout of Ansible's junit callback
// (ansible.builtin.junit, with its default settings): a testsuite per
// playbook (Ansible's puts one run's cases in one suite), a testcase per
// task and host named "[host] play: task args", classname the task's
// path:line; a failure (with the result) for a failed task, skipped for
// a skipped one, the result as system-out otherwise. An ignored failure
// passes; an unreachable host has no testcase, as in Ansible.
func JUnit(w io.Writer) func(provision.Event) {
	j := &junit{w: w}
	return j.event
}

type junit struct {
	w      io.Writer
	suites []*junitSuite
	play   string
	task   *junitTask
}

type junitSuite struct {
	name  string
	cases []*junitCase
}

type junitTask struct {
	name, path string
	start      time.Time
}

type junitCase struct {
	name, classname string
	time            float64
	out             string
	failure         *[2]string // message, output
	skipped         string
}

func (j *junit) suite(playbook string) *junitSuite {
	name := strings.TrimSuffix(filepath.Base(playbook), filepath.Ext(playbook))
	if n := len(j.suites); n > 0 && j.suites[n-1].name == name {
		return j.suites[n-1]
	}
	s := &junitSuite{name: name}
	j.suites = append(j.suites, s)
	return s
}

func (j *junit) event(e provision.Event) {
	switch e.Kind {
	case provision.PlayStart:
		j.play = e.Play
	case provision.TaskStart:
		name := strings.TrimSpace(e.Task)
		if args := junitArgs(e.Args); args != "" {
			name += " " + args
		}
		j.task = &junitTask{name: name, path: ansiblePath(e.Path), start: e.Time}
	case provision.HostResult:
		if e.IsItem || j.task == nil || e.Status == provision.StatusUnreachable {
			return
		}
		j.result(e)
	case provision.RunEnd:
		j.write()
	}
}

// junitArgs are a task's arguments as the junit callback appends them to
// its name: "k=v" joined by ", ", values as Python's str() prints them,
// keys sorted (tender does not keep their written order).
func junitArgs(args map[string]any) string {
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + expr.Str(args[k])
	}
	return strings.Join(parts, ", ")
}

func (j *junit) result(e provision.Event) {
	t := j.task
	c := &junitCase{name: "[" + e.Host + "] " + j.play + ": " + t.name, classname: t.path}
	if !t.start.IsZero() && !e.Time.IsZero() {
		c.time = e.Time.Sub(t.start).Seconds()
	}
	indent := ""
	if e.Verbose {
		indent = "    " // Ansible dumps debug's results indented
	}
	dump := junitDump(e.Result, indent)
	switch {
	case e.Status == provision.StatusFailed && !e.Ignored:
		msg, ok := e.Result["msg"].(string)
		if !ok {
			msg = "rc=" + rcOr0(e.Result)
		}
		c.failure = &[2]string{msg, dump}
	case e.Status == provision.StatusSkipped:
		c.skipped = "skipped"
		if r, ok := e.Result["skip_reason"].(string); ok {
			c.skipped = r
		}
	default:
		c.out = dump
	}
	s := j.suite(e.Playbook)
	s.cases = append(s.cases, c)
}

func rcOr0(r map[string]any) string {
	if _, ok := r["rc"]; !ok {
		return "0"
	}
	return rcString(r)
}

// junitDump is a result as the callback dumps it: Python's json.dumps
// with indent=0 (a line per value, none indented), or indented for
// debug's results.
func junitDump(r map[string]any, indent string) string {
	out := shown(r)
	for k := range out {
		if strings.HasPrefix(k, "_ansible_") || k == "invocation" || k == "diff" || k == "exception" {
			delete(out, k)
		}
	}
	data, err := marshal(out, "    ")
	if err != nil {
		return fmt.Sprintf("%v", r)
	}
	if indent != "" {
		return string(data)
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, " ")
	}
	return strings.Join(lines, "\n")
}

// write prints the report as Python's minidom pretty-prints it.
func (j *junit) write() {
	var b strings.Builder
	var tests, failures int
	var total float64
	for _, s := range j.suites {
		for _, c := range s.cases {
			tests++
			total += c.time
			if c.failure != nil {
				failures++
			}
		}
	}
	b.WriteString("<?xml version=\"1.0\" ?>\n")
	fmt.Fprintf(&b, "<testsuites disabled=\"0\" errors=\"0\" failures=\"%d\" tests=\"%d\" time=\"%s\">\n", failures, tests, pyFloat(total))
	for _, s := range j.suites {
		var sf, ss int
		var st float64
		for _, c := range s.cases {
			st += c.time
			if c.failure != nil {
				sf++
			}
			if c.skipped != "" {
				ss++
			}
		}
		fmt.Fprintf(&b, "\t<testsuite disabled=\"0\" errors=\"0\" failures=\"%d\" name=%s skipped=\"%d\" tests=\"%d\" time=\"%s\">\n",
			sf, xmlAttr(s.name), ss, len(s.cases), pyFloat(st))
		for _, c := range s.cases {
			fmt.Fprintf(&b, "\t\t<testcase classname=%s name=%s time=\"%s\">\n", xmlAttr(c.classname), xmlAttr(c.name), pyFloat(c.time))
			switch {
			case c.skipped != "":
				fmt.Fprintf(&b, "\t\t\t<skipped>%s</skipped>\n", xmlText(c.skipped))
			case c.failure != nil:
				fmt.Fprintf(&b, "\t\t\t<failure message=%s type=\"failure\">%s</failure>\n", xmlAttr(c.failure[0]), xmlText(c.failure[1]))
			default:
				fmt.Fprintf(&b, "\t\t\t<system-out>%s</system-out>\n", xmlText(c.out))
			}
			b.WriteString("\t\t</testcase>\n")
		}
		b.WriteString("\t</testsuite>\n")
	}
	b.WriteString("</testsuites>\n")
	_, _ = io.WriteString(j.w, b.String())
}

// pyFloat prints a float as Python's str() does for these durations.
func pyFloat(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// xmlText escapes text as minidom does: &, <, >, and ".
var xmlTextEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\"", "&quot;")

func xmlText(s string) string { return xmlTextEscaper.Replace(s) }

// xmlAttr quotes an attribute value as Python 3.11's minidom does.
func xmlAttr(s string) string { return "\"" + xmlTextEscaper.Replace(s) + "\"" }
