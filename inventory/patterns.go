package inventory

import (
	"fmt"
	"os"
	"strings"

	"github.com/tender-sh/tender/internal/hostpattern"
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

// implicitHost returns Ansible's implicit localhost for one of its names
// when the inventory does not define it, or nil.
func (inv *Inventory) implicitHost(name string) *Host {
	if !hostpattern.IsLocalhost(name) || inv.hosts[name] != nil {
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
		terms = append(terms, hostpattern.Split(p)...)
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
	for _, t := range hostpattern.Split(limit) {
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

// evaluate applies terms in Ansible's order (internal/hostpattern);
// unmatched lists the terms that matched nothing. A subscript that picks
// no host is a *hostpattern.SubscriptError.
func (inv *Inventory) evaluate(terms []string) (hosts []*Host, unmatched []string, err error) {
	res, err := hostpattern.Evaluate[*Host](patternSource{inv}, terms)
	if err != nil {
		return nil, nil, err
	}
	if inv.Warn != nil {
		for _, w := range res.Warnings {
			inv.Warn(w)
		}
	}
	return res.Hosts, res.Unmatched, nil
}

// patternSource is the inventory as host patterns see it.
type patternSource struct{ inv *Inventory }

func (s patternSource) Groups() []string {
	out := make([]string, len(s.inv.groupOrder))
	for i, g := range s.inv.groupOrder {
		out[i] = g.Name
	}
	return out
}

func (s patternSource) GroupHosts(name string) []*Host { return s.inv.groups[name].AllHosts() }

func (s patternSource) Hosts() []*Host { return s.inv.hostOrder }

func (s patternSource) Host(name string) (*Host, bool) {
	h := s.inv.hosts[name]
	return h, h != nil
}

func (patternSource) Name(h *Host) string { return h.Name }

func (s patternSource) Implicit(name string) (*Host, bool) {
	h := s.inv.implicitHost(name)
	return h, h != nil
}
