package expr

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/pyre"
)

// Ansible's host patterns over the hosts and groups of the variable
// `groups`, for the inventory_hostnames lookup.

type hostInventory struct {
	groups     map[string][]string
	groupOrder []string // all, ungrouped, then the others sorted
	hosts      []string // every host, in the order of groups.all
}

var (
	hostPortRE   = regexp.MustCompile(`^((?:[^:\[\]]|\[[^\]]*\])*):([0-9]+)$`)
	hostLabelRE  = regexp.MustCompile(`^(?:[\p{L}\p{N}_-]|\[[0-9a-z]+:[0-9a-z]+(?::[0-9]+)?\])+$`)
	ipv6RE       = regexp.MustCompile(`(?i)^\[?[0-9a-f:.\[\]]*:[0-9a-f:.\[\]]*:[0-9a-f:.\[\]]*\]?(?::[0-9]+)?$`)
	patternPart  = regexp.MustCompile(`(?:[^\s:\[\]]|\[[^\]]*\])+`)
	subscriptRE  = regexp.MustCompile(`^(.+)\[(?:(-?[0-9]+)|([0-9]+)([:-])([0-9]*))\]$`)
	localhostSet = []string{"127.0.0.1", "localhost", "::1"}
)

// splitHostPattern is Ansible's split_host_pattern: on commas when there
// are any, else on colons that are not part of an address or a range.
func splitHostPattern(p string) []string {
	var parts []string
	switch {
	case strings.Contains(p, ","):
		parts = strings.Split(p, ",")
	case isAddress(p):
		parts = []string{p}
	default:
		parts = patternPart.FindAllString(p, -1)
	}
	var out []string
	for _, x := range parts {
		if x = strings.TrimFunc(x, pySpace); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// isAddress is whether parse_address would read p as one host (with a
// port, an IPv6 address).
func isAddress(p string) bool {
	if m := hostPortRE.FindStringSubmatch(p); m != nil {
		host := strings.Trim(m[1], "[]")
		if strings.HasPrefix(m[1], "[") && ipv6RE.MatchString(host) {
			return true
		}
		for _, label := range strings.Split(host, ".") {
			if !hostLabelRE.MatchString(label) {
				return false
			}
		}
		return host != ""
	}
	return ipv6RE.MatchString(p) && strings.Count(p, ":") >= 2
}

// evaluate is InventoryManager._evaluate_patterns plus get_hosts's
// de-duplication; a subscript that picks nothing is a fatalError.
func (inv *hostInventory) evaluate(patterns []string) ([]string, error) {
	var regular, inter, excl []string
	for _, p := range patterns {
		switch p[0] {
		case '!':
			excl = append(excl, p)
		case '&':
			inter = append(inter, p)
		default:
			regular = append(regular, p)
		}
	}
	if regular == nil {
		regular = []string{"all"}
	}
	var hosts []string
	for _, p := range append(append(regular, inter...), excl...) {
		if contains(inv.hosts, p) {
			hosts = append(hosts, p)
			continue
		}
		that, err := inv.matchOne(p)
		if err != nil {
			return nil, err
		}
		switch p[0] {
		case '!':
			hosts = filterHosts(hosts, that, false)
		case '&':
			hosts = filterHosts(hosts, that, true)
		default:
			have := map[string]bool{}
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
	seen := map[string]bool{}
	out := []string{}
	for _, h := range hosts {
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	return out, nil
}

func filterHosts(hosts, that []string, keep bool) []string {
	in := map[string]bool{}
	for _, h := range that {
		in[h] = true
	}
	var out []string
	for _, h := range hosts {
		if in[h] == keep {
			out = append(out, h)
		}
	}
	return out
}

func (inv *hostInventory) matchOne(p string) ([]string, error) {
	if p[0] == '&' || p[0] == '!' {
		p = p[1:]
	}
	if p == "" {
		return nil, nil
	}
	expr := p
	var start, end int
	sub := false
	if p[0] != '~' {
		if m := subscriptRE.FindStringSubmatch(p); m != nil {
			expr, sub = m[1], true
			if m[2] != "" {
				start, _ = strconv.Atoi(m[2])
				end = 0
			} else {
				start, _ = strconv.Atoi(m[3])
				end = -1
				if m[5] != "" {
					end, _ = strconv.Atoi(m[5])
				}
			}
		}
	}
	hosts, err := inv.enumerate(expr)
	if err != nil || !sub || len(hosts) == 0 {
		return hosts, err
	}
	if end != 0 {
		if end == -1 {
			end = len(hosts) - 1
		}
		lo, hi := start, end+1
		if lo < 0 {
			lo += len(hosts)
		}
		lo, hi = min(max(lo, 0), len(hosts)), min(max(hi, 0), len(hosts))
		if lo >= hi {
			return []string{}, nil
		}
		return hosts[lo:hi], nil
	}
	if start < 0 {
		start += len(hosts)
	}
	if start < 0 || start >= len(hosts) {
		return nil, fatalf("No hosts matched the subscripted pattern '%s'", p)
	}
	return []string{hosts[start]}, nil
}

func (inv *hostInventory) enumerate(p string) ([]string, error) {
	re, err := hostPatternRE(p)
	if err != nil {
		return nil, err
	}
	var out []string
	matched := false
	match := func(s string) (bool, error) {
		m, err := re.Match(s)
		if err != nil {
			return false, errorf("%v", err)
		}
		return m != nil, nil
	}
	for _, g := range inv.groupOrder {
		ok, err := match(g)
		if err != nil {
			return nil, err
		}
		if ok {
			matched = true
			out = append(out, inv.groups[g]...)
		}
	}
	if !matched || p[0] == '~' || strings.ContainsAny(p, ".?*[") {
		for _, h := range inv.hosts {
			ok, err := match(h)
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, h)
			}
		}
	}
	if len(out) == 0 && contains(localhostSet, p) {
		out = append(out, p)
	}
	return out, nil
}

// hostPatternRE compiles "~regex" or a shell glob (fnmatch.translate),
// both Python regular expressions that Ansible matches with re.match.
func hostPatternRE(p string) (*pyre.Regexp, error) {
	if p[0] == '~' {
		re, err := pyre.Compile(p[1:], pyre.Options{})
		if err != nil {
			return nil, errorf("Invalid host list pattern: %s", p)
		}
		return re, nil
	}
	var b strings.Builder
	b.WriteString(`(?s)^(?:`)
	r := []rune(p)
	for i := 0; i < len(r); i++ {
		switch c := r[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			j := i + 1
			if j < len(r) && r[j] == '!' {
				j++
			}
			if j < len(r) && r[j] == ']' {
				j++
			}
			for j < len(r) && r[j] != ']' {
				j++
			}
			if j >= len(r) {
				b.WriteString(`\[`)
				continue
			}
			class := string(r[i+1 : j])
			class = strings.ReplaceAll(class, `\`, `\\`)
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			} else if strings.HasPrefix(class, "^") {
				class = `\` + class
			}
			b.WriteString("[" + class + "]")
			i = j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`)\Z`)
	re, err := pyre.Compile(b.String(), pyre.Options{})
	if err != nil {
		return nil, errorf("Invalid host list pattern: %s", p)
	}
	return re, nil
}

// inventoryHostnamesLookup is inventory_hostnames: the hosts of the
// variable groups (every group's host list) that a host pattern matches,
// with Ansible's pattern rules: patterns split on "," (or ":"), "&"
// intersects, "!" excludes, * ? [] are globs, ~ starts a regular
// expression, [i] and [i:j] pick hosts of a match.
func inventoryHostnamesLookup(ev *evaluator, terms []any, _ map[string]any) ([]any, error) {
	gv, ok, err := lookupIn(ev.scope, "groups", ev.st.b)
	if err != nil {
		return nil, err
	}
	groups, isMap := gv.(map[string]any)
	if !ok || !isMap {
		return nil, errorf("the inventory_hostnames lookup needs the variable 'groups' (a dict of host lists)")
	}
	inv := &hostInventory{groups: map[string][]string{}}
	order := []string{"all", "ungrouped"}
	for _, g := range sortedKeys(groups) {
		if g != "all" && g != "ungrouped" {
			order = append(order, g)
		}
	}
	seen := map[string]bool{}
	for _, g := range order {
		hosts, present := groups[g]
		inv.groupOrder = append(inv.groupOrder, g)
		if !present {
			continue
		}
		items, err := iterate(hosts)
		if err != nil {
			return nil, errorf("groups[%s] is not a list of hosts", Repr(g))
		}
		for _, h := range items {
			name := Str(h)
			inv.groups[g] = append(inv.groups[g], name)
			if !seen[name] {
				seen[name] = true
				inv.hosts = append(inv.hosts, name)
			}
		}
	}
	var patterns []string
	for _, t := range terms {
		s, ok := text(t)
		if !ok {
			return nil, errorf("the inventory_hostnames lookup takes host patterns as strings, got %s", typeName(t))
		}
		patterns = append(patterns, splitHostPattern(s)...)
	}
	hosts, err := inv.evaluate(patterns)
	var fe *fatalError
	if errors.As(err, &fe) {
		return []any{}, nil // Ansible's lookup answers [] when the pattern fails
	}
	if err != nil {
		return nil, err
	}
	return toList(hosts), nil
}
