package main

import (
	"encoding/json"
	"regexp"
	"strings"
)

// keywords are the task fields the minimiser may drop; anything else is
// a task's module and stays.
var keywords = map[string]bool{
	"name": true, "when": true, "register": true, "changed_when": true, "failed_when": true,
	"ignore_errors": true, "run_once": true, "tags": true, "notify": true, "loop": true,
	"with_items": true, "with_dict": true, "loop_control": true,
}

var taskLineRE = regexp.MustCompile(`^task \d+ "(?:[^"\\]|\\.)*" \S+?(\.[^:]*)?:`)

// Class is what kind of divergence a list of differences shows, used to
// keep the same divergence while minimising and to report each kind once:
// the first task-level difference's result path (".rc",
// ".results[0].changed"), else the first difference with its task number
// and name left out.
//
// A message's divergence (".msg") also carries the shape of both messages
// (msgShape): "task.msg" alone would make every wrong message one kind,
// and the first would hide the rest.
func Class(diffs []string) string {
	for _, d := range diffs {
		if m := taskLineRE.FindStringSubmatch(d); m != nil {
			if strings.HasSuffix(m[1], ".msg") {
				return "task" + m[1] + msgShape(d)
			}
			return "task" + m[1]
		}
	}
	for _, d := range diffs {
		if strings.HasPrefix(d, "task ") {
			return regexp.MustCompile(`^task \d+`).ReplaceAllString(strings.SplitN(d, ":", 2)[0], "task") + ":" + classTail(d)
		}
	}
	if len(diffs) == 0 {
		return ""
	}
	d := diffs[0]
	switch {
	case strings.HasPrefix(d, "state:"):
		return "state"
	case strings.HasPrefix(d, "recap"):
		return "recap"
	}
	return d
}

// msgShapeRE finds what differs from one case to the next inside a
// message: quoted text, parenthesised text, numbers.
var msgShapeRE = regexp.MustCompile(`'[^']*'|"[^"]*"|\([^()]*\)|<[^<>]*>|\d+`)

// msgShape is the shape of the two messages of a ".msg" difference line:
// each unquoted, without the position Ansible appends, with quoted and
// parenthesised text and numbers blanked, cut to its first 30 and last 60
// characters (the kind of error and its innermost cause).
func msgShape(d string) string {
	var shapes []string
	for _, side := range []string{`: ansible `, `, tender `} {
		i := strings.Index(d, side)
		if i < 0 {
			return ""
		}
		rest := d[i+len(side):]
		var msg string
		if err := json.NewDecoder(strings.NewReader(rest)).Decode(&msg); err != nil {
			msg = strings.SplitN(rest, ",", 2)[0] // absent, or not a string
		}
		// The position Ansible appends is the same for every error at
		// the task: the error is before it.
		msg, _, _ = strings.Cut(msg, "\n\nThe error appears to be in")
		r := []rune(strings.Join(strings.Fields(msgShapeRE.ReplaceAllString(msg, "_")), " "))
		if len(r) > 90 {
			r = append(r[:30:30], append([]rune("…"), r[len(r)-60:]...)...)
		}
		shapes = append(shapes, string(r))
	}
	return " [" + strings.Join(shapes, " | ") + "]"
}

func classTail(d string) string {
	switch {
	case strings.Contains(d, "only ansible ran"), strings.Contains(d, "only tender ran"):
		return " extra task"
	case strings.Contains(d, "ansible ran"):
		return " other task"
	}
	return ""
}

// Minimise shrinks c while keep holds for the smaller case, trying at
// most budget candidates, and returns the smallest case found. Each
// step drops one thing: a task, a block's sections (or the block around
// its tasks), a keyword, a module option, a play variable, a host, the
// extra arguments, a list element.
func Minimise(c *Case, keep func(*Case) bool, budget int) *Case {
	best := c
	for budget > 0 {
		improved := false
		for _, cand := range candidates(best) {
			if budget <= 0 {
				break
			}
			if cand.size() >= best.size() {
				continue
			}
			budget--
			if keep(cand) {
				best, improved = cand, true
				break
			}
		}
		if !improved {
			break
		}
	}
	return best
}

// candidates are the cases one step smaller than c, roughly the biggest
// steps first.
func candidates(c *Case) []*Case {
	var out []*Case
	// Each task list of c, reached through a path of edits on a clone.
	lists := taskLists(c)
	for li := range lists {
		for ti := range *lists[li] {
			// Drop the task.
			n := c.clone()
			l := taskLists(n)[li]
			*l = append((*l)[:ti:ti], (*l)[ti+1:]...)
			out = append(out, n)
		}
	}
	for li := range lists {
		for ti, t := range *lists[li] {
			if !t.IsBlock {
				continue
			}
			// The block's tasks in its place.
			n := c.clone()
			l := taskLists(n)[li]
			b := (*l)[ti]
			repl := append(append(append([]*Task(nil), b.Block...), b.Rescue...), b.Always...)
			*l = append(append(append([]*Task(nil), (*l)[:ti]...), repl...), (*l)[ti+1:]...)
			out = append(out, n)
			for _, sec := range []int{1, 2} {
				n := c.clone()
				b := (*taskLists(n)[li])[ti]
				if sec == 1 && b.Rescue != nil {
					b.Rescue = nil
					out = append(out, n)
				}
				if sec == 2 && b.Always != nil {
					b.Always = nil
					out = append(out, n)
				}
			}
		}
	}
	if len(c.Args) > 0 {
		n := c.clone()
		n.Args = nil
		out = append(out, n)
	}
	for i := range c.Hosts {
		if len(c.Hosts) > 1 {
			n := c.clone()
			n.Hosts = append(n.Hosts[:i:i], n.Hosts[i+1:]...)
			out = append(out, n)
		}
	}
	for li := range lists {
		for ti, t := range *lists[li] {
			for fi, f := range t.Fields {
				if keywords[f.K] {
					n := c.clone()
					nt := (*taskLists(n)[li])[ti]
					nt.Fields = append(nt.Fields[:fi:fi], nt.Fields[fi+1:]...)
					out = append(out, n)
					continue
				}
				out = append(out, shrinkValue(c, li, ti, fi, f.V)...)
			}
		}
	}
	for i := range c.Vars {
		n := c.clone()
		n.Vars = append(n.Vars[:i:i], n.Vars[i+1:]...)
		out = append(out, n)
	}
	for _, p := range c.varFileNames() {
		n := c.clone()
		delete(n.VarFiles, p)
		if p == "vf1.yml" {
			n.VarsFiles = nil
		}
		out = append(out, n)
	}
	if len(c.GroupVars) > 0 {
		n := c.clone()
		n.GroupVars = nil
		out = append(out, n)
	}
	for i := range c.PlayRoles {
		n := c.clone()
		n.PlayRoles = append(n.PlayRoles[:i:i], n.PlayRoles[i+1:]...)
		out = append(out, n)
	}
	return out
}

// shrinkValue makes candidates with one option of a module's arguments
// (or one element of a list argument) left out.
func shrinkValue(c *Case, li, ti, fi int, v any) []*Case {
	var out []*Case
	switch v := v.(type) {
	case M:
		for i := range v {
			n := c.clone()
			nt := (*taskLists(n)[li])[ti]
			m := append(M(nil), v[:i]...)
			m = append(m, v[i+1:]...)
			nt.Fields[fi].V = m
			out = append(out, n)
		}
	case []any:
		for i := range v {
			n := c.clone()
			nt := (*taskLists(n)[li])[ti]
			nt.Fields[fi].V = append(append([]any(nil), v[:i]...), v[i+1:]...)
			out = append(out, n)
		}
	}
	return out
}

// taskLists are pointers to every task list of c, in a fixed order: the
// play's tasks and handlers, each file's tasks, and the sections of every
// block within them, depth first.
func taskLists(c *Case) []*[]*Task {
	var out []*[]*Task
	var walk func(l *[]*Task)
	walk = func(l *[]*Task) {
		out = append(out, l)
		for _, t := range *l {
			if t.IsBlock {
				walk(&t.Block)
				walk(&t.Rescue)
				walk(&t.Always)
			}
		}
	}
	walk(&c.Tasks)
	walk(&c.Handlers)
	for _, f := range c.Files {
		walk(&f.Tasks)
	}
	for _, r := range c.Roles {
		walk(&r.Tasks)
		walk(&r.Handlers)
	}
	return out
}
