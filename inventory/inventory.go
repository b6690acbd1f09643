package inventory

import (
	"fmt"
	"sort"
	"sync"
	"unicode"
)

// Inventory is a set of hosts and groups. The zero value is not usable; make
// one with New or Load.
type Inventory struct {
	groups     map[string]*Group
	groupOrder []*Group
	hosts      map[string]*Host
	hostOrder  []*Host
	localhost  *Host

	// varsDirs are the directories whose host_vars/ and group_vars/ hold
	// variables, one per source, in source order (repeats allowed, as in
	// Ansible).
	varsDirs []string
	// playDirs holds the playbook directory, if set (SetPlaybookDir).
	playDirs []string
	// mu guards the lazily filled files cache and localhost, so that
	// concurrent readers are safe.
	mu sync.Mutex
	// files caches the parsed content of host_vars/group_vars lookups:
	// key is "dir\x00host_vars\x00name".
	files map[string]map[string]any
	// source is the file being parsed, recorded on the hosts it creates.
	source   string
	warnings []string
}

// Group is an inventory group.
type Group struct {
	// Name is the group's name.
	Name string
	// Vars are the variables set on the group by inventory sources (not the
	// group_vars/ files). Change them with SetVar.
	Vars     map[string]any
	priority int
	children []*Group
	parents  []*Group
	hosts    []*Host
	hostSet  map[*Host]bool
}

// Host is an inventory host.
type Host struct {
	// Name is the inventory hostname.
	Name string
	// Vars are the variables set on the host by inventory sources (not the
	// host_vars/ files), including ansible_port from a host:port entry.
	Vars map[string]any
	// Implicit is true for the implicit localhost that patterns such as
	// "localhost" produce when the inventory does not name it.
	Implicit bool
	// Source is the inventory file that first named the host, as given to
	// the parser (Ansible's inventory_file; its directory is inventory_dir).
	// It is empty for hosts added at run time.
	Source string
	groups []*Group
}

// New returns an empty inventory holding the groups "all" and "ungrouped",
// the latter a child of the former, as every Ansible inventory does.
func New() *Inventory {
	inv := &Inventory{
		groups: map[string]*Group{},
		hosts:  map[string]*Host{},
		files:  map[string]map[string]any{},
	}
	inv.addGroup("all")
	_ = inv.addGroup("all").addChild(inv.addGroup("ungrouped"))
	return inv
}

// AddGroup returns the named group, creating it (as a child of "all") if
// it does not exist, as group_by and add_host's groups do.
func (inv *Inventory) AddGroup(name string) *Group {
	g := inv.addGroup(name)
	inv.reconcileGroups()
	return g
}

func (inv *Inventory) addGroup(name string) *Group {
	if g := inv.groups[name]; g != nil {
		return g
	}
	g := &Group{Name: name, Vars: map[string]any{}, priority: 1}
	inv.groups[name] = g
	inv.groupOrder = append(inv.groupOrder, g)
	return g
}

// AddHost returns the named host, creating it if needed, and makes it a
// member of each of groups (which are created if missing). Like Ansible's
// add_host, a host that ends up in a group other than "all" leaves
// "ungrouped".
func (inv *Inventory) AddHost(name string, groups ...string) (*Host, error) {
	if name == "" {
		return nil, fmt.Errorf("invalid empty host name")
	}
	h := inv.addHost(name, 0)
	for _, gn := range groups {
		if gn == "" {
			return nil, fmt.Errorf("invalid empty group name for host %s", name)
		}
		inv.addGroup(gn).addHost(h)
	}
	inv.reconcileGroups()
	inv.reconcileHost(h)
	if err := inv.loadHostFiles(h); err != nil {
		return h, err
	}
	return h, nil
}

// addHost creates the host if it is new; port (if non-zero) becomes
// ansible_port only for a new host, as in Ansible.
func (inv *Inventory) addHost(name string, port int) *Host {
	if h := inv.hosts[name]; h != nil {
		return h
	}
	h := &Host{Name: name, Vars: map[string]any{}, Source: inv.source}
	if port != 0 {
		h.Vars["ansible_port"] = port
	}
	inv.hosts[name] = h
	inv.hostOrder = append(inv.hostOrder, h)
	return h
}

// AddChild makes child (a group or, failing that, a host) a member of the
// group parent. It refuses an edge that would create a cycle. A host made a
// member of a group leaves "ungrouped".
func (inv *Inventory) AddChild(parent, child string) error {
	if err := inv.addChild(parent, child); err != nil {
		return err
	}
	inv.reconcileGroups()
	if h := inv.hosts[child]; h != nil && inv.groups[child] == nil {
		inv.reconcileHost(h)
	}
	return nil
}

func (inv *Inventory) addChild(parent, child string) error {
	p := inv.groups[parent]
	if p == nil {
		return fmt.Errorf("%s is not a known group", parent)
	}
	if c := inv.groups[child]; c != nil {
		return p.addChild(c)
	}
	if h := inv.hosts[child]; h != nil {
		p.addHost(h)
		return nil
	}
	return fmt.Errorf("%s is not a known host nor group", child)
}

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

// reconcile applies Ansible's rules after a change: every group but "all"
// without a parent becomes a child of "all"; a host with no group besides
// "all" joins "ungrouped", and one with another group leaves it.
func (inv *Inventory) reconcile() {
	inv.reconcileGroups()
	for _, h := range inv.hostOrder {
		inv.reconcileHost(h)
	}
}

func (inv *Inventory) reconcileGroups() {
	all := inv.groups["all"]
	for _, g := range inv.groupOrder {
		if g != all && len(g.parents) == 0 {
			_ = all.addChild(g)
		}
	}
}

func (inv *Inventory) reconcileHost(h *Host) {
	all, ungrouped := inv.groups["all"], inv.groups["ungrouped"]
	other, inUngrouped := false, false
	for _, g := range h.Groups() {
		switch g {
		case ungrouped:
			inUngrouped = true
		case all:
		default:
			other = true
		}
	}
	if inUngrouped && other {
		ungrouped.removeHost(h)
	} else if !inUngrouped && !other {
		ungrouped.addHost(h)
	}
}

// Warnings returns what Ansible would warn about: YAML entries it skips,
// and names used for both a group and a host.
func (inv *Inventory) Warnings() []string {
	out := append([]string(nil), inv.warnings...)
	for _, g := range inv.groupOrder {
		if !validVarName(g.Name) {
			out = append(out, "Invalid characters were found in group names but not replaced, use -vvvv to see details")
			break
		}
	}
	for _, g := range inv.groupOrder {
		if inv.hosts[g.Name] != nil {
			out = append(out, "Found both group and host with same name: "+g.Name)
		}
	}
	return out
}

// validVarName reports whether s is a valid Python identifier-like name
// (Ansible's INVALID_VARIABLE_NAMES does not match it).
func validVarName(s string) bool {
	for i, r := range s {
		word := r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
		if !word || i == 0 && unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

// Host returns the named host, or nil if the inventory has none by that name.
func (inv *Inventory) Host(name string) *Host { return inv.hosts[name] }

// Group returns the named group, or nil.
func (inv *Inventory) Group(name string) *Group { return inv.groups[name] }

// Groups returns every group in the order the sources declared them.
func (inv *Inventory) Groups() []*Group { return append([]*Group(nil), inv.groupOrder...) }

// GroupsDict returns Ansible's `groups` magic variable: each group's name
// mapped to the names of its hosts (its descendants' included).
func (inv *Inventory) GroupsDict() map[string][]string {
	out := make(map[string][]string, len(inv.groups))
	for _, g := range inv.groupOrder {
		names := []string{}
		for _, h := range g.AllHosts() {
			names = append(names, h.Name)
		}
		out[g.Name] = names
	}
	return out
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
