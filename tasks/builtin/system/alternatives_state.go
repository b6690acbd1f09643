package system

import (
	"fmt"
	"regexp"
	"strconv"
)

// The pure part of the alternatives module: reading update-alternatives
// --display (Debian's "slave", RedHat's "follower" and "family" forms)
// and planning the commands, messages and diff as community.general's
// alternatives module does.

// altSub is one subcommand (a slave, or follower, link of the group).
type altSub struct{ Name, Path, Link string }

// dict is the subcommand as the module returns it; link is None when the
// display named no link for it.
func (s altSub) dict(hasLink bool) map[string]any {
	d := map[string]any{"name": s.Name, "path": s.Path, "link": nil}
	if hasLink {
		d["link"] = s.Link
	}
	return d
}

// altEntry is one alternative of the group: its priority and its
// subcommands (as dicts, link nil when unknown).
type altEntry struct {
	priority int
	subs     []map[string]any
}

// altCurrent is what --display showed of the group; nil when it failed.
type altCurrent struct {
	mode, path, link   string
	hasMode, hasPath   bool
	hasLink            bool
	alternatives       map[string]altEntry
	parsedAlternatives bool
}

// The patterns of the display, as the module reads it.
var (
	altModeRe    = regexp.MustCompile(`(?m)\s-\s(?:status\sis\s)?(\w*)(?:\smode|.)$`)
	altPathRe    = regexp.MustCompile(`(?m)^\s*link currently points to (.*)$`)
	altLinkRe    = regexp.MustCompile(`(?m)^\s*link \w+ is (.*)$`)
	altSubLinkRe = regexp.MustCompile(`(?m)^\s*(?:slave|follower) (\S+) is (.*)$`)
	altEntryRe   = regexp.MustCompile(`(?m)^(/.*)\s-\s(?:family\s\S+\s)?priority\s(\d+)((?:\s+(?:slave|follower).*)*)`)
	altSubRe     = regexp.MustCompile(`(?m)^\s+(?:slave|follower) (.*): (.*)$`)
)

// parseAltDisplay reads the display of a group; subs (when given) name
// the links of subcommands the display does not.
func parseAltDisplay(out string, subs []altSub, hasSubs bool) *altCurrent {
	c := &altCurrent{alternatives: map[string]altEntry{}}
	m := altModeRe.FindStringSubmatch(out)
	if m == nil {
		return c
	}
	c.mode, c.hasMode = m[1], true
	if m := altPathRe.FindStringSubmatch(out); m != nil {
		c.path, c.hasPath = m[1], true
	}
	if m := altLinkRe.FindStringSubmatch(out); m != nil {
		c.link, c.hasLink = m[1], true
	}
	links := map[string]string{}
	for _, m := range altSubLinkRe.FindAllStringSubmatch(out, -1) {
		links[m[1]] = m[2]
	}
	if len(links) == 0 && hasSubs {
		for _, s := range subs {
			links[s.Name] = s.Link
		}
	}
	for _, m := range altEntryRe.FindAllStringSubmatch(out, -1) {
		prio, _ := strconv.Atoi(m[2])
		e := altEntry{priority: prio, subs: []map[string]any{}}
		for _, sm := range altSubRe.FindAllStringSubmatch(m[3], -1) {
			if sm[2] == "(null)" {
				continue
			}
			l, ok := links[sm[1]]
			e.subs = append(e.subs, altSub{Name: sm[1], Path: sm[2], Link: l}.dict(ok))
		}
		c.alternatives[m[1]] = e
	}
	c.parsedAlternatives = true
	return c
}

// altJob is one alternatives task: its arguments (paths as the host
// expanded them) and the group as displayed (cur nil when --display
// failed).
type altJob struct {
	ua, name, path, link, state string
	hasLink, hasPriority        bool
	priority                    int
	subs                        []altSub
	hasSubs, exists, diff       bool
	cur                         *altCurrent
}

// altPlan is what the task does: the commands, the messages, the diff.
type altPlan struct {
	cmds          [][]string
	msgs          []string
	before, after map[string]any
}

// current is the display's entry for the task's path.
func (j *altJob) current() (altEntry, bool) {
	if j.cur == nil {
		return altEntry{}, false
	}
	e, ok := j.cur.alternatives[j.path]
	return e, ok
}

// subDicts are the subcommands the task gives, as dicts.
func (j *altJob) subDicts() []any {
	out := make([]any, len(j.subs))
	for i, s := range j.subs {
		out[i] = s.dict(true)
	}
	return out
}

// sameSubs reports whether the given subcommands are the current ones,
// in any order.
func sameSubs(given []any, cur []map[string]any) bool {
	in := func(d map[string]any, list []any) bool {
		for _, x := range list {
			if dictEqual(d, x.(map[string]any)) {
				return true
			}
		}
		return false
	}
	curAny := make([]any, len(cur))
	for i, d := range cur {
		curAny[i] = d
	}
	for _, d := range cur {
		if !in(d, given) {
			return false
		}
	}
	for _, x := range given {
		if !in(x.(map[string]any), curAny) {
			return false
		}
	}
	return true
}

// dictEqual compares two subcommand dicts.
func dictEqual(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// plan decides the commands and builds the messages and the diff; a
// non-empty string is the task's failure.
func (j *altJob) plan() (altPlan, string) {
	p := altPlan{before: map[string]any{}, after: map[string]any{}}
	entry, present := j.current()
	if j.diff && j.cur != nil && j.cur.parsedAlternatives {
		if present {
			p.before["state"], p.before["path"], p.before["priority"] = "present", j.path, entry.priority
			p.before["link"] = nil
			if j.cur.hasLink {
				p.before["link"] = j.cur.link
			}
			if len(entry.subs) > 0 {
				p.before["subcommands"] = anyDicts(entry.subs)
			}
			if j.cur.mode == "manual" && (!j.cur.hasPath || j.cur.path != j.path) {
				p.before["state"] = "selected"
			}
		} else {
			p.before["state"] = "absent"
		}
	}
	if j.state == "absent" {
		if present {
			p.cmds = append(p.cmds, []string{j.ua, "--remove", j.name, j.path})
			p.msgs = append(p.msgs, fmt.Sprintf("Remove alternative '%s' from '%s'.", j.path, j.name))
			if j.diff {
				p.after = map[string]any{"state": "absent"}
			}
		}
		return p, ""
	}
	given := j.subDicts()
	if !present || (j.hasPriority && entry.priority != j.priority) || (j.hasSubs && !sameSubs(given, entry.subs)) {
		if !j.exists {
			return p, fmt.Sprintf("Specified path %s does not exist", j.path)
		}
		link, hasLink := j.link, j.hasLink
		if !hasLink && j.cur != nil && j.cur.hasLink && j.cur.link != "" {
			link, hasLink = j.cur.link, true
		}
		if !hasLink {
			return p, "Needed to install the alternative, but unable to do so as we are missing the link"
		}
		prio := 50
		if j.hasPriority {
			prio = j.priority
		} else if present {
			prio = entry.priority
		}
		cmd := []string{j.ua, "--install", link, j.name, j.path, strconv.Itoa(prio)}
		for _, s := range j.subs {
			cmd = append(cmd, "--slave", s.Link, s.Name, s.Path)
		}
		p.cmds = append(p.cmds, cmd)
		p.msgs = append(p.msgs, fmt.Sprintf("Install alternative '%s' for '%s'.", j.path, j.name))
		if j.diff {
			p.after = map[string]any{"state": "present", "path": j.path, "priority": prio, "link": link}
			if j.hasSubs && len(given) > 0 {
				p.after["subcommands"] = given
			} else if !j.hasSubs && len(entry.subs) > 0 {
				p.after["subcommands"] = anyDicts(entry.subs)
			}
		}
	}
	curPath, hasCurPath := "", false
	if j.cur != nil {
		curPath, hasCurPath = j.cur.path, j.cur.hasPath
	}
	if j.state == "selected" && (!hasCurPath || curPath != j.path) {
		p.cmds = append(p.cmds, []string{j.ua, "--set", j.name, j.path})
		p.msgs = append(p.msgs, fmt.Sprintf("Set alternative '%s' for '%s'.", j.path, j.name))
		if j.diff {
			p.after["state"] = "selected"
		}
	}
	if j.state == "auto" && j.cur != nil && j.cur.hasMode && j.cur.mode == "manual" {
		p.cmds = append(p.cmds, []string{j.ua, "--auto", j.name})
		p.msgs = append(p.msgs, fmt.Sprintf("Set alternative to auto for '%s'.", j.name))
		if j.diff {
			p.after["state"] = "present"
		}
	}
	return p, ""
}

// anyDicts is a list of dicts as []any.
func anyDicts(ds []map[string]any) []any {
	out := make([]any, len(ds))
	for i, d := range ds {
		out[i] = d
	}
	return out
}
