package inventory

import (
	"fmt"
	"sort"

	"github.com/tender-sh/tender/internal/pydict"
)

func (g *Group) addChild(c *Group) error {
	if g == c {
		return fmt.Errorf("can't add group %s to itself", g.Name)
	}
	for _, x := range g.children {
		if x == c {
			return nil
		}
	}
	if g.hasAncestor(c) {
		return fmt.Errorf("Adding group '%s' as child to '%s' creates a recursive dependency loop.", c.Name, g.Name)
	}
	g.children = append(g.children, c)
	c.parents = append(c.parents, g)
	return nil
}

func (g *Group) addHost(h *Host) {
	if g.hostSet[h] {
		return
	}
	if g.hostSet == nil {
		g.hostSet = map[*Host]bool{}
	}
	g.hostSet[h] = true
	g.hosts = append(g.hosts, h)
	h.groups = append(h.groups, g)
}

func (g *Group) removeHost(h *Host) {
	delete(g.hostSet, h)
	for i, x := range g.hosts {
		if x == h {
			g.hosts = append(g.hosts[:i:i], g.hosts[i+1:]...)
			break
		}
	}
	for i, x := range h.groups {
		if x == g {
			h.groups = append(h.groups[:i:i], h.groups[i+1:]...)
			break
		}
	}
}

// hasAncestor reports whether a is a (transitive) parent of g.
func (g *Group) hasAncestor(a *Group) bool {
	seen := map[*Group]bool{}
	stack := append([]*Group(nil), g.parents...)
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if p == a {
			return true
		}
		if !seen[p] {
			seen[p] = true
			stack = append(stack, p.parents...)
		}
	}
	return false
}

// SetVar sets an inventory variable on the group. ansible_group_priority is
// not stored as a variable; it sets the group's priority, as in Ansible.
func (g *Group) SetVar(key string, value any) error {
	if key == "ansible_group_priority" {
		p, err := toInt(value)
		if err != nil {
			return err
		}
		g.priority = p
		return nil
	}
	g.Vars[key] = value
	return nil
}

// SetVar sets an inventory variable on the host.
func (h *Host) SetVar(key string, value any) { h.Vars[key] = value }

// Priority is the group's ansible_group_priority (default 1).
func (g *Group) Priority() int { return g.priority }

// Children returns the group's direct child groups in declaration order.
func (g *Group) Children() []*Group { return append([]*Group(nil), g.children...) }

// Parents returns the group's direct parent groups.
func (g *Group) Parents() []*Group { return append([]*Group(nil), g.parents...) }

// Hosts returns the hosts declared directly in the group.
func (g *Group) Hosts() []*Host { return append([]*Host(nil), g.hosts...) }

// Depth is the length of the longest chain of parents from "all" to g, which
// Ansible uses to order group variables (deeper groups win).
func (g *Group) Depth() int { return g.depth(map[*Group]int{}) }

func (g *Group) depth(memo map[*Group]int) int {
	if d, ok := memo[g]; ok {
		return d
	}
	memo[g] = 0 // guards against a cycle, which AddChild refuses anyway
	d := 0
	for _, p := range g.parents {
		if pd := p.depth(memo) + 1; pd > d {
			d = pd
		}
	}
	memo[g] = d
	return d
}

// ancestors returns every transitive parent of g.
func (g *Group) ancestors(into map[*Group]bool) {
	for _, p := range g.parents {
		if !into[p] {
			into[p] = true
			p.ancestors(into)
		}
	}
}

// Groups returns every group the host belongs to, directly or through a
// child group, "all" included, in an unspecified but stable order.
func (h *Host) Groups() []*Group {
	set := map[*Group]bool{}
	var out []*Group
	for _, g := range h.groups {
		if !set[g] {
			set[g] = true
			out = append(out, g)
		}
		anc := map[*Group]bool{}
		g.ancestors(anc)
		for _, a := range sortedGroups(anc) {
			if !set[a] {
				set[a] = true
				out = append(out, a)
			}
		}
	}
	return out
}

// GroupNames is Ansible's group_names: the names of the host's groups,
// "all" excepted, sorted.
func (h *Host) GroupNames() []string {
	names := []string{}
	for _, g := range h.Groups() {
		if g.Name != "all" {
			names = append(names, g.Name)
		}
	}
	sort.Strings(names)
	return names
}

func sortedGroups(set map[*Group]bool) []*Group {
	out := make([]*Group, 0, len(set))
	for g := range set {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// sortGroups orders groups as Ansible's sort_groups: by depth, then
// priority, then name.
func sortGroups(gs []*Group) {
	type key struct {
		d, p int
	}
	keys := make(map[*Group]key, len(gs))
	memo := map[*Group]int{}
	for _, g := range gs {
		keys[g] = key{g.depth(memo), g.priority}
	}
	sort.SliceStable(gs, func(i, j int) bool {
		a, b := keys[gs[i]], keys[gs[j]]
		if a.d != b.d {
			return a.d < b.d
		}
		if a.p != b.p {
			return a.p < b.p
		}
		return gs[i].Name < gs[j].Name
	})
}

// setHostVar sets an inventory variable on h as a source sets it: with
// hash_behaviour=merge a dict merges into the dict already there.
func (inv *Inventory) setHostVar(h *Host, key string, value any) {
	h.SetVar(key, inv.mergedValue(h.Vars[key], value))
}

// setGroupVar is setHostVar for a group's variable.
func (inv *Inventory) setGroupVar(g *Group, key string, value any) error {
	return g.SetVar(key, inv.mergedValue(g.Vars[key], value))
}

// mergedValue is value set over old: merged into it when both are dicts
// under hash_behaviour=merge, else value.
func (inv *Inventory) mergedValue(old, value any) any {
	om, ok1 := old.(map[string]any)
	nm, ok2 := value.(map[string]any)
	if inv.hashMerge && ok1 && ok2 {
		return pydict.MergeHash(om, nm)
	}
	return value
}
