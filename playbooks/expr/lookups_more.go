package expr

import (
	"errors"

	"github.com/tender-sh/tender/internal/pyre"
)

// indexedItemsLookup is indexed_items: [index, item] for each item of the
// terms, flattened one level.
func indexedItemsLookup(_ *evaluator, terms []any, _ map[string]any) ([]any, error) {
	items := flatten(terms, 1, false)
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = []any{i, it}
	}
	return out, nil
}

// varnamesLookup is varnames: the names of the variables that a term (a
// regular expression) matches anywhere, in the order of the variables
// (DIFFERENCES.md item 10).
func varnamesLookup(ev *evaluator, terms []any, _ map[string]any) ([]any, error) {
	k := keyedBelow(ev.scope)
	if k == nil {
		return nil, ansibleErrorf("No variables available to search")
	}
	names := k.Keys()
	out := []any{}
	for _, t := range terms {
		pat, ok := text(t)
		if !ok {
			return nil, ansibleErrorf("Invalid setting identifier, \"%s\" is not a string, it is a %s", Str(t), pyClass(t))
		}
		re, err := pyre.Compile(pat, pyre.Options{Timeout: ev.st.b.searchTimeout()})
		if err != nil {
			// Python's re.error in its own words.
			msg := err.Error()
			var se *pyre.SyntaxError
			if errors.As(err, &se) {
				msg = se.Python()
			}
			return nil, ansibleErrorf("Unable to use \"%s\" as a search parameter: %s", pat, msg)
		}
		for _, n := range names {
			m, err := search(ev.st.b, re, n, "search")
			if err != nil {
				return nil, err
			}
			if m != nil {
				out = append(out, n)
			}
		}
	}
	return out, nil
}

// keyedBelow finds the variables under template-local frames.
func keyedBelow(s Scope) Keyed {
	for {
		switch t := s.(type) {
		case *local:
			s = t.parent
		case withoutLoop:
			s = t.frame
		case *resolving:
			return t.v
		case Keyed:
			return t
		default:
			return nil
		}
	}
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
