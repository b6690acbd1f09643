package report

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/tender-sh/tender/provision"
)

// AnsibleJSONOptions shape the output of AnsibleJSON.
type AnsibleJSONOptions struct {
	// Indent is the JSON indent (the callback's json_indent, 4 by
	// default in Ansible); 0 or less writes one line.
	Indent int
	// ShowCustomStats fills custom_stats and global_custom_stats with
	// what set_stats recorded (ANSIBLE_SHOW_CUSTOM_STATS).
	ShowCustomStats bool
	// Warnings, when set, receives the "[WARNING]: …" lines (Ansible
	// prints them on stderr); nil drops them, stdout being one document.
	Warnings io.Writer
}

// AnsibleJSON returns an event handler that writes to w, when each
// playbook ends (or the run, for events without PlaybookEnd), the document Ansible's json stdout callback (ansible.posix.json,
// ANSIBLE_STDOUT_CALLBACK=json) prints: plays, each with its tasks and
// every host's result, then per-host stats and the custom stats. Events
// must come from one run at a time, as the Runner delivers them.
func AnsibleJSON(w io.Writer, opts AnsibleJSONOptions) func(provision.Event) {
	a := &ansibleJSON{w: w, opts: opts}
	return a.event
}

type ansibleJSON struct {
	w     io.Writer
	opts  AnsibleJSONOptions
	plays []map[string]any
	ids   int
	// printed is set once a PlaybookEnd printed the document.
	printed bool
}

// now is Ansible's current_time: UTC ISO 8601 with a Z.
func now(t time.Time) string {
	if t.IsZero() {
		t = time.Now()
	}
	return t.UTC().Format("2006-01-02T15:04:05.000000") + "Z"
}

// id makes an id shaped like Ansible's task and play uuids.
func (a *ansibleJSON) id() string {
	a.ids++
	return fmt.Sprintf("7e4d0000-0001-0000-0000-%012d", a.ids)
}

// ansiblePath turns a file:line:col position into Ansible's path:line.
func ansiblePath(pos string) string {
	file, line := pos, ""
	if i := strings.LastIndex(file, ":"); i > 0 {
		if _, err := strconv.Atoi(file[i+1:]); err == nil {
			file = file[:i]
			if j := strings.LastIndex(file, ":"); j > 0 {
				if _, err := strconv.Atoi(file[j+1:]); err == nil {
					file, line = file[:j], file[j+1:]
				}
			} else {
				line = pos[i+1:]
			}
		}
	}
	if file != "" && !filepath.IsAbs(file) {
		if abs, err := filepath.Abs(file); err == nil {
			file = abs
		}
	}
	if line == "" {
		return file
	}
	return file + ":" + line
}

func (a *ansibleJSON) event(e provision.Event) {
	switch e.Kind {
	case provision.PlayStart:
		path := ansiblePath(e.Path)
		if n := len(a.plays); n > 0 && e.Path != "" && a.plays[n-1]["play"].(map[string]any)["path"] == path {
			return // the next serial batch of the same play
		}
		a.plays = append(a.plays, map[string]any{
			"play":  map[string]any{"name": e.Play, "id": a.id(), "path": path, "duration": map[string]any{"start": now(e.Time)}},
			"tasks": []any{},
		})
	case provision.TaskStart:
		p := a.play()
		p["tasks"] = append(p["tasks"].([]any), map[string]any{
			"task":  map[string]any{"name": e.Task, "id": a.id(), "path": ansiblePath(e.Path), "duration": map[string]any{"start": now(e.Time)}},
			"hosts": map[string]any{},
		})
	case provision.HostResult:
		if e.IsItem {
			return
		}
		a.result(e)
	case provision.Warning:
		if a.opts.Warnings != nil {
			fmt.Fprintln(a.opts.Warnings, Warning(e.Msg, DefaultColumns))
		}
	case provision.PlaybookEnd:
		// Ansible's callback prints at each playbook's stats: every play
		// so far, with the recap so far.
		a.end(e.Recap)
		a.printed = true
	case provision.RunEnd:
		if !a.printed {
			a.end(e.Recap)
		}
	}
}

// play is the current play, made when a result comes before any.
func (a *ansibleJSON) play() map[string]any {
	if len(a.plays) == 0 {
		a.event(provision.Event{Kind: provision.PlayStart})
	}
	return a.plays[len(a.plays)-1]
}

func (a *ansibleJSON) result(e provision.Event) {
	p := a.play()
	tasks := p["tasks"].([]any)
	if len(tasks) == 0 {
		a.event(provision.Event{Kind: provision.TaskStart, Task: e.Task, Path: e.Path})
		tasks = p["tasks"].([]any)
	}
	task := tasks[len(tasks)-1].(map[string]any)
	r := maps.Clone(e.Result)
	if r == nil {
		r = map[string]any{}
	}
	// Ansible's callbacks see failed and skipped only where they are
	// true (a loop's register says skipped: false).
	for _, k := range []string{"failed", "skipped"} {
		if f, ok := r[k].(bool); ok && !f {
			delete(r, k)
		}
	}
	switch e.Status {
	case provision.StatusFailed:
		r["failed"] = true
	case provision.StatusSkipped:
		r["skipped"] = true
	}
	r["action"] = e.Module
	task["hosts"].(map[string]any)[e.Host] = r
	end := now(e.Time)
	task["task"].(map[string]any)["duration"].(map[string]any)["end"] = end
	p["play"].(map[string]any)["duration"].(map[string]any)["end"] = end
}

func (a *ansibleJSON) end(recap *provision.Recap) {
	stats := map[string]any{}
	custom, global := map[string]any{}, map[string]any{}
	if recap != nil {
		for h, s := range recap.Stats {
			if *s == (provision.Stats{}) {
				continue // as Ansible's stats hold only the hosts processed
			}
			stats[h] = map[string]int{"ok": s.OK, "changed": s.Changed, "unreachable": s.Unreachable,
				"failures": s.Failed, "skipped": s.Skipped, "rescued": s.Rescued, "ignored": s.Ignored}
		}
		if a.opts.ShowCustomStats {
			for k, v := range recap.Custom {
				if k == "_run" {
					maps.Copy(global, v)
				} else {
					custom[k] = v
				}
			}
		}
	}
	plays := make([]any, len(a.plays))
	for i, p := range a.plays {
		plays[i] = p
	}
	doc := map[string]any{"plays": plays, "stats": stats, "custom_stats": custom, "global_custom_stats": global}
	indent := ""
	if a.opts.Indent > 0 {
		indent = strings.Repeat(" ", a.opts.Indent)
	}
	data, err := marshal(doc, indent)
	if err != nil {
		fmt.Fprintf(a.w, "{\"error\": %q}\n", err.Error())
		return
	}
	fmt.Fprintln(a.w, asciiJSON(string(data)))
}

// asciiJSON escapes what is not ASCII as \uXXXX, as Python's json.dumps
// does by default (only strings hold such characters).
func asciiJSON(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}
