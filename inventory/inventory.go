package inventory

import (
	"fmt"
	"path/filepath"
	"sync"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/internal/yaml11"
)

// Inventory is a set of hosts and groups. The zero value is not usable; make
// one with New or Load.
type Inventory struct {
	// Warn, when set, receives what Ansible warns about while matching
	// host patterns (the old [x-y] subscript), once per match.
	Warn func(msg string)

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
	// shown are messages Ansible prints as errors without failing (an
	// inventory script's stderr).
	shown []string
	// notes are what Ansible says about the sources at -vvv.
	notes   []string
	dupKeys yaml11.DuplicatePolicy
	// decrypt opens vault data (Options.Decrypt).
	decrypt func([]byte) ([]byte, error)
	// keepVault is Options.KeepVaultValues.
	keepVault bool
	// hashMerge is Options.HashMerge.
	hashMerge bool
	// opts are the Options the inventory is being loaded with.
	opts Options
	// groupsDict is GroupsDict's answer until a host or group is added
	// (changed clears it); guarded by mu.
	groupsDict map[string][]string
	// groupsVar is GroupsVar's answer, kept as groupsDict is.
	groupsVar map[string]any
}

// changed forgets what was derived from the inventory's hosts and groups:
// every exported method that adds a host, a group or a membership calls
// it.
func (inv *Inventory) changed() {
	inv.mu.Lock()
	inv.groupsDict, inv.groupsVar = nil, nil
	inv.mu.Unlock()
}

// decoder is a YAML decoder for one document that decrypts vault data
// with the inventory's Decrypt.
func (inv *Inventory) decoder() *yaml11.Decoder {
	d := yaml11.NewDecoder()
	d.Decrypt, d.KeepVault = inv.decrypt, inv.keepVault
	return d
}

// checkDuplicates applies the inventory's duplicate key policy to the
// document root of file name: a warning each (Warnings), or an error.
func (inv *Inventory) checkDuplicates(name string, src []byte, root *yaml.Node) error {
	if abs, err := filepath.Abs(name); err == nil {
		name = abs // as Ansible names the file
	}
	warn := func(msg string) { inv.warnings = append(inv.warnings, msg) }
	err := yaml11.CheckDuplicates(inv.dupKeys, warn, src, root, name)
	if ye, ok := err.(*yaml11.Error); ok {
		return &ParseError{File: name, Line: ye.Line, Col: ye.Col, Msg: ye.Msg}
	}
	return err
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
	// the parser (Ansible's inventory_file; its directory is inventory_dir),
	// or the host list ("web1,web2,") that did. It is empty for hosts
	// added at run time.
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
	defer inv.changed()
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
	defer inv.changed()
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
	defer inv.changed()
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

// Errors returns what Ansible prints as an error without failing: the
// stderr of an inventory script that succeeded ([ERROR]: in its output).
func (inv *Inventory) Errors() []string { return append([]string(nil), inv.shown...) }

// Notes returns what Ansible says about the sources at -vvv: a host
// list entry whose range does not parse and is kept as written.
func (inv *Inventory) Notes() []string { return append([]string(nil), inv.notes...) }

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
//
// The map is shared by the callers until the inventory changes: it must not
// be modified. A play per host of a big fleet (agent deploy) reads it once
// per host; it is made once.
func (inv *Inventory) GroupsDict() map[string][]string {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	return inv.groupsDictLocked()
}

// GroupsVar is GroupsDict as a template sees it: each group's host names
// as a []any. It is shared as GroupsDict's map is, and must not be
// modified either: a run per host of a 10,000-host fleet would otherwise
// convert every group's list once per host.
func (inv *Inventory) GroupsVar() map[string]any {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	if inv.groupsVar != nil {
		return inv.groupsVar
	}
	d := inv.groupsDictLocked()
	out := make(map[string]any, len(d))
	for g, hs := range d {
		l := make([]any, len(hs))
		for i, h := range hs {
			l[i] = h
		}
		out[g] = l
	}
	inv.groupsVar = out
	return out
}

func (inv *Inventory) groupsDictLocked() map[string][]string {
	if inv.groupsDict != nil {
		return inv.groupsDict
	}
	out := make(map[string][]string, len(inv.groups))
	for _, g := range inv.groupOrder {
		names := []string{}
		for _, h := range g.AllHosts() {
			names = append(names, h.Name)
		}
		out[g.Name] = names
	}
	inv.groupsDict = out
	return out
}
