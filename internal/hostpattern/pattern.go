// Package hostpattern is Ansible's host patterns, the one implementation
// behind a play's hosts:, --limit, an ad hoc command's pattern and the
// inventory_hostnames lookup: splitting a pattern into terms, matching a
// term against group and host names (a shell glob, or a regular
// expression after ~), subscripts, and the &/! set operations in Ansible's
// order. It also reads addresses as Ansible's parse_address does. It
// imports nothing of tender's but internal/pyre, internal/pyfmt and
// internal/fnmatch.
package hostpattern

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/pyfmt"
)

// Source is what a pattern is matched against: an inventory's groups
// and hosts, each host H known by its name.
type Source[H comparable] interface {
	// Groups lists the group names in the order patterns try them (all
	// and ungrouped first).
	Groups() []string
	// GroupHosts returns the hosts of a group and of its descendants, in
	// order.
	GroupHosts(group string) []H
	// Hosts lists every host, in order.
	Hosts() []H
	// Host returns the host of that name, if there is one.
	Host(name string) (H, bool)
	// Name is h's name.
	Name(h H) string
	// Implicit returns the host a term that matched nothing stands for
	// (Ansible's implicit localhost for its three names), if any.
	Implicit(name string) (H, bool)
}

// Result is what a pattern selected.
type Result[H comparable] struct {
	// Hosts are the hosts selected, in order, without duplicates.
	Hosts []H
	// Unmatched are the terms that matched nothing ("all" aside), for
	// Ansible's "Could not match supplied host pattern" warning.
	Unmatched []string
	// Warnings are what Ansible warns about while matching (the old
	// [x-y] subscript), each once.
	Warnings []string
}

// SubscriptError is a subscript that picks no host of its term's match
// (web[5] of two hosts): Ansible's AnsibleError, which ends the run.
type SubscriptError struct {
	// Term is the term with its subscript, without its & or !.
	Term string
}

// Error returns Ansible's message.
func (e *SubscriptError) Error() string {
	return fmt.Sprintf("No hosts matched the subscripted pattern '%s'", e.Term)
}

// oldRangeWarning is Ansible's warning for a [x-y] subscript.
const oldRangeWarning = "Use [x:y] inclusive subscripts instead of [x-y] which has been removed"

// Split splits a pattern into its terms as Ansible's split_host_pattern
// does: on commas if there are any; else the whole text when it reads as
// one address (an IPv6 address, a host with a port or a [x:y] range);
// else on colons and white space outside brackets. Empty terms are left
// out.
func Split(p string) []string {
	var parts []string
	switch {
	case strings.Contains(p, ","):
		parts = strings.Split(p, ",")
	default:
		if _, _, ok := ParseAddress(p); ok {
			parts = []string{p}
		} else {
			parts = colonTerms.FindAllString(p, -1)
		}
	}
	var out []string
	for _, s := range parts {
		if s = strings.TrimFunc(s, pyfmt.IsSpace); s != "" {
			out = append(out, s)
		}
	}
	return out
}

var colonTerms = regexp.MustCompile(`(?:[^\s:\[\]]|\[[^\]]*\])+`)

// Evaluate applies terms to src as Ansible's _evaluate_patterns does:
// the plain terms (all when there are none), then every &term
// (intersection), then every !term (exclusion); a term that names a host
// is that host. An error is a term that cannot be compiled, a regular
// expression's search past its bounds, or a *SubscriptError.
func Evaluate[H comparable](src Source[H], terms []string) (Result[H], error) {
	var res Result[H]
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
	var hosts []H
	warned := map[string]bool{}
	for _, t := range append(append(plain, and...), not...) {
		if h, ok := src.Host(t); ok {
			hosts = append(hosts, h)
			continue
		}
		that, warn, err := matchTerm(src, t)
		if err != nil {
			return Result[H]{}, err
		}
		if warn != "" && !warned[warn] {
			warned[warn] = true
			res.Warnings = append(res.Warnings, warn)
		}
		if len(that) == 0 && strings.TrimLeft(t, "&!") != "all" {
			res.Unmatched = append(res.Unmatched, t)
		}
		set := make(map[H]bool, len(that))
		for _, h := range that {
			set[h] = true
		}
		switch t[0] {
		case '!', '&':
			keep := t[0] == '&'
			kept := hosts[:0:0]
			for _, h := range hosts {
				if set[h] == keep {
					kept = append(kept, h)
				}
			}
			hosts = kept
		default:
			have := make(map[H]bool, len(hosts))
			for _, h := range hosts {
				have[h] = true
			}
			for _, h := range that {
				if !have[h] {
					hosts = append(hosts, h)
				}
			}
		}
	}
	seen := make(map[H]bool, len(hosts))
	for _, h := range hosts {
		if !seen[h] {
			seen[h] = true
			res.Hosts = append(res.Hosts, h)
		}
	}
	return res, nil
}

var subscript = regexp.MustCompile(`^(.+)\[(?:(-?[0-9]+)|([0-9]+)([:-])([0-9]*))\]$`)

// matchTerm returns the hosts one term (its & or ! dropped) selects, and
// the warning its subscript calls for.
func matchTerm[H comparable](src Source[H], term string) ([]H, string, error) {
	if term[0] == '&' || term[0] == '!' {
		term = term[1:]
	}
	if term == "" {
		return nil, "", nil
	}
	expr := term
	var start, end int
	sub, warn := false, ""
	if term[0] != '~' {
		if m := subscript.FindStringSubmatch(term); m != nil {
			expr, sub = m[1], true
			if m[2] != "" {
				start = pyInt(m[2])
			} else {
				start, end = pyInt(m[3]), -1
				if m[5] != "" {
					end = pyInt(m[5])
				}
				if m[4] == "-" {
					warn = oldRangeWarning
				}
			}
		}
	}
	hosts, err := enumerate(src, expr)
	if err != nil || !sub || len(hosts) == 0 {
		return hosts, warn, err
	}
	if end != 0 { // Python's hosts[start:end+1]; start is not negative here
		if end == -1 {
			end = len(hosts) - 1
		}
		lo, hi := min(start, len(hosts)), min(max(end, -1)+1, len(hosts))
		if lo >= hi {
			return nil, warn, nil
		}
		return hosts[lo:hi], warn, nil
	}
	i := start // Python's [hosts[start]]
	if i < 0 {
		i += len(hosts)
	}
	if i < 0 || i >= len(hosts) {
		return nil, warn, &SubscriptError{Term: term}
	}
	return hosts[i : i+1], warn, nil
}

// pyInt is Python's int() of a subscript's digits; one beyond Go's int
// stands at its end of the range (it picks nothing, as Python's would).
func pyInt(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		if strings.HasPrefix(s, "-") {
			return math.MinInt / 2
		}
		return math.MaxInt / 2
	}
	return n
}

// enumerate matches one term against the group names, then the host
// names, as Ansible's _enumerate_matches: the hosts of every group it
// matches; every host it matches when it matched no group or is a
// regular expression or a glob; else the implicit host of that name.
func enumerate[H comparable](src Source[H], expr string) ([]H, error) {
	match, err := Matcher(expr)
	if err != nil {
		return nil, err
	}
	var out []H
	matchedGroup := false
	for _, g := range src.Groups() {
		ok, err := match(g)
		if err != nil {
			return nil, err
		}
		if ok {
			matchedGroup = true
			out = append(out, src.GroupHosts(g)...)
		}
	}
	if !matchedGroup || expr[0] == '~' || strings.ContainsAny(expr, ".?*[") {
		for _, h := range src.Hosts() {
			ok, err := match(src.Name(h))
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, h)
			}
		}
	}
	if len(out) == 0 {
		if h, ok := src.Implicit(expr); ok {
			out = append(out, h)
		}
	}
	return out, nil
}

// LocalhostNames are the names Ansible's implicit localhost answers to.
var LocalhostNames = []string{"localhost", "127.0.0.1", "::1"}

// IsLocalhost reports whether name is one of LocalhostNames.
func IsLocalhost(name string) bool {
	for _, n := range LocalhostNames {
		if n == name {
			return true
		}
	}
	return false
}
