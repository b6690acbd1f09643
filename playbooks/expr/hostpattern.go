package expr

import (
	"errors"

	"github.com/tender-sh/tender/internal/hostpattern"
)

// hostNames are the hosts and groups of the variable groups, as the
// inventory_hostnames lookup matches host patterns against them.
type hostNames struct {
	groups     map[string][]string
	groupOrder []string // all, ungrouped, then the others sorted
	hosts      []string // every host, in the order of groups.all
	index      map[string]bool
}

func (n *hostNames) Groups() []string                    { return n.groupOrder }
func (n *hostNames) GroupHosts(group string) []string    { return n.groups[group] }
func (n *hostNames) Hosts() []string                     { return n.hosts }
func (n *hostNames) Host(name string) (string, bool)     { return name, n.index[name] }
func (n *hostNames) Name(h string) string                { return h }
func (n *hostNames) Implicit(name string) (string, bool) { return name, hostpattern.IsLocalhost(name) }

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
	inv := &hostNames{groups: map[string][]string{}, index: map[string]bool{}}
	order := []string{"all", "ungrouped"}
	for _, g := range sortedKeys(groups) {
		if g != "all" && g != "ungrouped" {
			order = append(order, g)
		}
	}
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
			if !inv.index[name] {
				inv.index[name] = true
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
		patterns = append(patterns, hostpattern.Split(s)...)
	}
	res, err := hostpattern.Evaluate[string](inv, patterns)
	var se *hostpattern.SubscriptError
	if errors.As(err, &se) {
		return []any{}, nil // Ansible's lookup answers [] when the pattern fails
	}
	if err != nil {
		return nil, errorf("%v", err)
	}
	if env := ev.env(); env != nil && env.Warn != nil {
		for _, w := range res.Warnings {
			env.Warn(w)
		}
	}
	return toList(res.Hosts), nil
}
