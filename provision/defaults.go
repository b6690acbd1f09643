package provision

import (
	"fmt"
	"maps"
	"strings"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
)

// moduleDefaults returns the module_defaults in force for t's module: the
// play's, then each level's inward, the innermost entry for the module
// replacing the outer ones whole (as Ansible updates one dictionary of
// entries); t's own arguments are laid over them by the caller. A defaults key names a module as a task does (copy,
// ansible.builtin.copy, ansible.legacy.copy). group/… keys name action
// groups of collections: no module tender runs belongs to one, so they
// give nothing.
func (pr *playRun) moduleDefaults(t *playbooks.Task, scope expr.Scope) (map[string]any, error) {
	levels := []any{pr.play.ModuleDefaults}
	for _, l := range t.Levels() {
		levels = append(levels, l.ModuleDefaults)
	}
	var out map[string]any
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
			for name, args := range m {
				if strings.HasPrefix(name, "group/") || pr.rn.r.Modules.Canonical(name) != t.Module {
					continue
				}
				a, ok := args.(map[string]any)
				if !ok && args != nil {
					return nil, fmt.Errorf("module_defaults for %s must be a dictionary of arguments, not %s", name, expr.Repr(args))
				}
				// A level's entry for the module replaces the one of the
				// levels around it (and an earlier one of its own list),
				// as Ansible updates one dictionary of them: debug: {}
				// takes the defaults away.
				out = maps.Clone(a)
				if out == nil {
					out = map[string]any{}
				}
			}
		}
	}
	return out, nil
}
