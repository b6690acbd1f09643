package provision

import (
	"fmt"
	"maps"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
)

// moduleDefaults returns the module_defaults in force for t's module, as
// Ansible merges them: the levels' dictionaries into one, from the play
// inward (an inner level's entry replacing an outer one's whole), then
// the entries of the action groups the module belongs to (group/NAME,
// in their order), then the module's own entry over them; t's own
// arguments are laid over them by the caller. A key names a module as a
// task does (copy, ansible.builtin.copy, ansible.legacy.copy).
func (pr *playRun) moduleDefaults(t *playbooks.Task, scope expr.Scope) (map[string]any, error) {
	levels := []any{pr.play.ModuleDefaults}
	for _, l := range t.Levels() {
		levels = append(levels, l.ModuleDefaults)
	}
	var keys []string
	entries := map[string]map[string]any{}
	for _, lv := range levels {
		if lv == nil {
			continue
		}
		rendered, err := expr.RenderDeep(lv, scope)
		if err != nil {
			return nil, fmt.Errorf("module_defaults: %w", err)
		}
		dicts, ok := rendered.([]any)
		if !ok {
			dicts = []any{rendered}
		}
		for _, d := range dicts {
			m, ok := d.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("module_defaults must be a dictionary or a list of them, not %s", expr.Repr(d))
			}
			for _, name := range pydict.Keys(m) {
				args := m[name]
				group := strings.HasPrefix(name, "group/")
				if !group && pr.rn.r.Modules.Canonical(name) != t.Module {
					continue
				}
				a, ok := args.(map[string]any)
				if !ok && args != nil {
					return nil, fmt.Errorf("module_defaults for %s must be a dictionary of arguments, not %s", name, expr.Repr(args))
				}
				if !group {
					// Every name of the module is one entry: the
					// innermost replaces the others.
					name = "module"
				}
				if _, seen := entries[name]; !seen {
					keys = append(keys, name)
				}
				entries[name] = a
			}
		}
	}
	var out map[string]any
	for _, k := range keys {
		if g, ok := strings.CutPrefix(k, "group/"); ok && pr.inGroup(t, g) {
			if out == nil {
				out = map[string]any{}
			}
			maps.Copy(out, entries[k])
		}
	}
	if a, ok := entries["module"]; ok {
		if out == nil {
			out = map[string]any{}
		}
		maps.Copy(out, a)
	}
	return out, nil
}

// inGroup reports whether t's module is one of the action group's.
func (pr *playRun) inGroup(t *playbooks.Task, group string) bool {
	for _, m := range pr.rn.pb.ActionGroup(group) {
		if m == t.Module || pr.rn.r.Modules.Canonical(m) == t.Module {
			return true
		}
	}
	return false
}
