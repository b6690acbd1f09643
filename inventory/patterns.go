package inventory

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/pyfmt"
)

// NoMatchError is returned when a host pattern selects no host at all.
type NoMatchError struct {
	// Pattern is the pattern as given.
	Pattern string
	// Unmatched lists the terms of the pattern that matched no group and no
	// host (Ansible warns "Could not match supplied host pattern" for each).
	Unmatched []string
}

// Error implements error.
func (e *NoMatchError) Error() string {
	msg := fmt.Sprintf("no hosts matched the pattern %q", e.Pattern)
	if len(e.Unmatched) > 0 {
		msg += fmt.Sprintf(" (%s matched no group or host)", strings.Join(e.Unmatched, ", "))
	}
	return msg
}

var localhostNames = map[string]bool{"127.0.0.1": true, "localhost": true, "::1": true}

// implicitHost returns Ansible's implicit localhost for one of its names
// when the inventory does not define it, or nil.
func (inv *Inventory) implicitHost(name string) *Host {
	if !localhostNames[name] || inv.hosts[name] != nil {
		return nil
	}
	inv.mu.Lock()
	defer inv.mu.Unlock()
	if inv.localhost == nil {
		inv.localhost = &Host{Name: name, Implicit: true, Vars: map[string]any{"ansible_connection": "local"}}
	}
	return inv.localhost
}

// AllHosts returns the hosts of the group and its descendants in Ansible's
// order: the group's own hosts, then its children's, level by level. (Within
// one level below the first, Ansible's order follows Python set iteration;
// tender uses declaration order.)
func (g *Group) AllHosts() []*Host {
	ordered := []*Group{g}
	seen := map[*Group]bool{g: true}
	for _, c := range g.children {
		if !seen[c] {
			seen[c] = true
			ordered = append(ordered, c)
		}
	}
	level := ordered
	for len(level) > 0 {
		var next []*Group
		for _, x := range level {
			for _, c := range x.children {
				if !seen[c] {
					seen[c] = true
					ordered = append(ordered, c)
					next = append(next, c)
				}
			}
		}
		level = next
	}
	var out []*Host
	hs := map[*Host]bool{}
	for _, x := range ordered {
		for _, h := range x.hosts {
			if !hs[h] && !(g.Name == "all" && h.Implicit) {
				hs[h] = true
				out = append(out, h)
			}
		}
	}
	return out
}

// Hosts returns the hosts a pattern selects, as a play's `hosts:` or
// `ansible PATTERN` does: terms separated by ',' or ':' (`web:db`,
// `web,db`), `&term` intersects, `!term` excludes, applied in Ansible's
// order (plain terms, then every &, then every !). A term is `all` or `*`, a
// group name, a host name, a glob (`web*`), a regular expression matched at
// the start of names (`~web\d+`), any of these with a subscript (`web[0]`,
// `web[-1]`, `web[1:3]`, `web[2:]`). Hosts come in inventory order without
// duplicates. A pattern that selects nothing is a *NoMatchError.
func (inv *Inventory) Hosts(pattern string) ([]*Host, error) {
	return inv.Match([]string{pattern})
}

// Match is Hosts for a list of patterns (a play's `hosts:` list).
func (inv *Inventory) Match(patterns []string) ([]*Host, error) {
	var terms []string
	for _, p := range patterns {
		terms = append(terms, splitPattern(p)...)
	}
	hosts, unmatched, err := inv.evaluate(terms)
	if err != nil {
		return nil, err
	}
	if len(hosts) == 0 {
		return nil, &NoMatchError{Pattern: strings.Join(patterns, ","), Unmatched: unmatched}
	}
	return hosts, nil
}

// Limit keeps the hosts that the limit pattern (--limit) also selects,
// in their given order. A limit term @FILE reads terms from FILE, one per
// line. An empty result is a *NoMatchError.
func (inv *Inventory) Limit(hosts []*Host, limit string) ([]*Host, error) {
	var terms []string
	for _, t := range splitPattern(limit) {
		if strings.HasPrefix(t, "@") {
			data, err := os.ReadFile(t[1:])
			if err != nil {
				return nil, fmt.Errorf("limit file: %w", err)
			}
			for _, l := range strings.Split(string(data), "\n") {
				terms = append(terms, strings.TrimSpace(l))
			}
			continue
		}
		terms = append(terms, t)
	}
	sel, unmatched, err := inv.evaluate(terms)
	if err != nil {
		return nil, err
	}
	in := map[*Host]bool{}
	for _, h := range sel {
		in[h] = true
	}
	var out []*Host
	for _, h := range hosts {
		if in[h] {
			out = append(out, h)
		}
	}
	if len(out) == 0 {
		return nil, &NoMatchError{Pattern: limit, Unmatched: unmatched}
	}
	return out, nil
}

// splitPattern splits a pattern into terms as Ansible's split_host_pattern:
// on commas if there are any; else the whole text if it parses as one
// address (an IPv6 address or a host[x:y] range); else on colons and
// white space outside brackets.
func splitPattern(p string) []string {
	var parts []string
	if strings.Contains(p, ",") {
		parts = strings.Split(p, ",")
	} else if _, _, ok := parseAddress(p); ok {
		parts = []string{p}
	} else {
		parts = reColonTerms.FindAllString(p, -1)
	}
	var out []string
	for _, s := range parts {
		if s = strings.TrimFunc(s, pyfmt.IsSpace); s != "" {
			out = append(out, s)
		}
	}
	return out
}

var reColonTerms = regexp.MustCompile(`(?:[^\s:\[\]]|\[[^\]]*\])+`)

// evaluate applies terms in Ansible's order; unmatched lists the terms that
// matched nothing.
func (inv *Inventory) evaluate(terms []string) (hosts []*Host, unmatched []string, err error) {
	var plain, and, not []string
	for _, t := range terms {
		switch {
		case t == "":
		case t[0] == '!':
			not = append(not, t)
		case t[0] == '&':
			and = append(and, t)
		default:
			plain = append(plain, t)
		}
	}
	if len(plain) == 0 {
		plain = []string{"all"}
	}
	for _, t := range append(append(plain, and...), not...) {
		if h := inv.hosts[t]; h != nil {
			hosts = append(hosts, h)
			continue
		}
		that, err := inv.matchOne(t)
		if err != nil {
			return nil, nil, err
		}
		if len(that) == 0 && strings.TrimLeft(t, "&!") != "all" {
			unmatched = append(unmatched, t)
		}
		set := map[*Host]bool{}
		for _, h := range that {
			set[h] = true
		}
		switch t[0] {
		case '!':
			hosts = filterHosts(hosts, func(h *Host) bool { return !set[h] })
		case '&':
			hosts = filterHosts(hosts, func(h *Host) bool { return set[h] })
		default:
			have := map[string]bool{}
			for _, h := range hosts {
				have[h.Name] = true
			}
			for _, h := range that {
				if !have[h.Name] {
					hosts = append(hosts, h)
				}
			}
		}
	}
	seen := map[*Host]bool{}
	return filterHosts(hosts, func(h *Host) bool {
		if seen[h] {
			return false
		}
		seen[h] = true
		return true
	}), unmatched, nil
}

func filterHosts(hs []*Host, keep func(*Host) bool) []*Host {
	var out []*Host
	for _, h := range hs {
		if keep(h) {
			out = append(out, h)
		}
	}
	return out
}

var reSubscript = regexp.MustCompile(`^(.+)\[(?:(-?[0-9]+)|([0-9]+)([:-])([0-9]*))\]$`)

// matchOne returns the hosts one term (without its & or !) selects.
func (inv *Inventory) matchOne(term string) ([]*Host, error) {
	if term[0] == '&' || term[0] == '!' {
		term = term[1:]
	}
	if term == "" {
		return nil, nil
	}
	expr := term
	var sub []int // {idx} or {start, end}
	if term[0] != '~' {
		if m := reSubscript.FindStringSubmatch(term); m != nil {
			expr = m[1]
			if m[2] != "" {
				i, err := strconv.Atoi(m[2])
				if err != nil {
					return nil, fmt.Errorf("bad subscript in pattern '%s'", term)
				}
				sub = []int{i}
			} else {
				s, err1 := strconv.Atoi(m[3])
				e, err2 := -1, error(nil)
				if m[5] != "" {
					e, err2 = strconv.Atoi(m[5])
				}
				if err1 != nil || err2 != nil {
					return nil, fmt.Errorf("bad subscript in pattern '%s'", term)
				}
				sub = []int{s, e}
			}
		}
	}
	hosts, err := inv.enumerate(expr)
	if err != nil || len(hosts) == 0 || sub == nil {
		return hosts, err
	}
	if len(sub) == 1 || sub[1] == 0 {
		i := sub[0]
		if i < 0 {
			i += len(hosts)
		}
		if i < 0 || i >= len(hosts) {
			return nil, nil // Ansible: "No hosts matched the subscripted pattern"
		}
		return hosts[i : i+1], nil
	}
	start, end := sub[0], sub[1]
	if end == -1 {
		end = len(hosts) - 1
	}
	end++
	if end > len(hosts) {
		end = len(hosts)
	}
	if start >= end {
		return nil, nil
	}
	return hosts[start:end], nil
}

// enumerate matches one term against group names, then host names.
func (inv *Inventory) enumerate(expr string) ([]*Host, error) {
	match, err := termMatcher(expr)
	if err != nil {
		return nil, err
	}
	var out []*Host
	matchedGroup := false
	for _, g := range inv.groupOrder {
		ok, err := match(g.Name)
		if err != nil {
			return nil, err
		}
		if ok {
			matchedGroup = true
			out = append(out, g.AllHosts()...)
		}
	}
	if !matchedGroup || expr[0] == '~' || strings.ContainsAny(expr, ".?*[") {
		for _, h := range inv.hostOrder {
			ok, err := match(h.Name)
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, h)
			}
		}
	}
	if len(out) == 0 {
		if h := inv.implicitHost(expr); h != nil {
			out = append(out, h)
		}
	}
	return out, nil
}
