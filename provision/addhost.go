package provision

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/tasks"
)

// traits returns the Traits of the module t runs (the zero Traits for
// the engine's own actions and modules that ship with the content).
func (rn *run) traits(t *playbooks.Task) tasks.Traits {
	if t.ModuleFile != "" || t.ActionPlugin != "" {
		return tasks.Traits{}
	}
	if t.Kind == playbooks.KindIncludeTasks || t.Kind == playbooks.KindIncludeRole {
		// An include's result echoes its arguments, as written.
		return tasks.Traits{FromPlaybook: true}
	}
	d, _ := rn.r.Modules.Def(t.Module)
	return d.Traits
}

// engine returns which of the engine's own actions t runs (setup, meta,
// async_status, ...), tasks.NotEngine when t runs a module.
func (rn *run) engine(t *playbooks.Task) tasks.Engine {
	if t == nil || t.Kind != playbooks.KindModule || t.ModuleFile != "" || t.ActionPlugin != "" {
		return tasks.NotEngine
	}
	d, _ := rn.r.Modules.Def(t.Module)
	return d.Engine
}

// loadGroups rebuilds the groups magic variable from the inventory.
func (pr *playRun) loadGroups() {
	pr.rn.invMu.Lock()
	defer pr.rn.invMu.Unlock()
	pr.loadGroupsLocked()
}

func (pr *playRun) loadGroupsLocked() {
	groups := pr.rn.names.groups(pr.rn.r.Inventory.GroupsVar())
	pr.groups.Store(&groups)
}

// inventoryResult reports whether a module's result asks for an
// inventory change: add_host's or group_by's.
func inventoryResult(data map[string]any) bool {
	_, isHost := data["add_host"].(map[string]any)
	_, isGroup := tasks.Text(data["add_group"])
	return isHost || isGroup
}

// applyInventory carries out what add_host (Data["add_host"]) or group_by
// (Data["add_group"]) returned on h, as Ansible's strategy does after the
// module ran, and reports whether the in-memory inventory changed.
// Hosts and groups added this way last for the rest of the run: later
// plays can target them.
func (pr *playRun) applyInventory(h *hostRun, data map[string]any) (bool, error) {
	add, isHost := data["add_host"].(map[string]any)
	_, isGroup := tasks.Text(data["add_group"])
	if !isHost && !isGroup {
		return false, nil
	}
	rn := pr.rn
	group := rn.names.note(data["add_group"])
	rn.invMu.Lock()
	defer rn.invMu.Unlock()
	inv := rn.r.Inventory
	var changed bool
	var name string
	if isHost {
		name = rn.names.note(add["host_name"])
		host := inv.Host(name)
		changed = host == nil
		var groups []string
		for _, g := range asList(add["groups"]) {
			gs := rn.names.note(g)
			groups = append(groups, gs)
			if host == nil || !slices.Contains(host.GroupNames(), gs) {
				changed = true
			}
		}
		host, err := inv.AddHost(name, groups...)
		if err != nil {
			return false, fmt.Errorf("add_host: %w", err)
		}
		if vars, ok := add["host_vars"].(map[string]any); ok {
			for k, v := range vars {
				if old, ok := host.Vars[k]; !ok || !reflect.DeepEqual(old, v) {
					host.Vars[k] = v
					changed = true
				}
			}
		}
	} else {
		name = h.name
		before := slices.Clone(inv.Host(name).GroupNames())
		changed = inv.Group(group) == nil
		inv.AddGroup(group)
		for _, p := range asList(data["parent_groups"]) {
			ps := rn.names.note(p)
			if ps != "all" {
				inv.AddGroup(ps)
				if err := inv.AddChild(ps, group); err != nil {
					return false, fmt.Errorf("group_by: %w", err)
				}
			}
		}
		if !slices.Contains(inv.Host(name).GroupNames(), group) {
			changed = true
		}
		if err := inv.AddChild(group, name); err != nil {
			return false, fmt.Errorf("group_by: %w", err)
		}
		// New parents of a group the host was already in change its
		// group_names too.
		changed = changed || !slices.Equal(before, inv.Host(name).GroupNames())
	}
	if !changed {
		return false, nil
	}
	pr.loadGroupsLocked()
	return true, rn.syncHost(name)
}

// syncHost brings the run's state of an inventory host up to date with
// the inventory after add_host or group_by (making it for a new host, so
// hostvars shows it at once). The caller holds rn.invMu.
func (rn *run) syncHost(name string) error {
	ih := rn.r.Inventory.Host(name)
	rn.mu.Lock()
	hr, ok := rn.hosts[name]
	rn.mu.Unlock()
	if !ok {
		_, err := rn.hostLocked(ih)
		return err
	}
	vars, err := rn.r.Inventory.HostVars(name)
	if err != nil {
		return err
	}
	hr.setInventory(withSourceVars(ih, vars), ih.GroupNames())
	return nil
}

func asList(v any) []any {
	if l, ok := v.([]any); ok {
		return l
	}
	return nil
}
