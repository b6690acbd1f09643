package provision

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"

	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
)

// scope builds the variables a task sees on a host, in Ansible's order of
// precedence (lowest first): role defaults, inventory vars, facts, play
// vars, vars_files, role vars, block and task vars, set_fact and register
// results, role params, the loop variables of enclosing includes, extra vars, then the magic variables and the loop
// variables in extra. t may be nil (play-level templating).
func (pr *playRun) scope(h *hostRun, t *playbooks.Task, extra map[string]any) *expr.Vars {
	var defaults, roleVars, levelVars, params []map[string]any
	var role *playbooks.Role
	if t != nil {
		for _, l := range t.Levels() {
			if l.Role != nil {
				role = l.Role
				defaults = append(defaults, l.Role.Defaults)
				roleVars = append(roleVars, l.Role.RoleVars)
				params = append(params, l.Role.Params)
			}
			if len(l.Vars) > 0 {
				levelVars = append(levelVars, l.Vars)
			}
		}
	}
	layers := make([]map[string]any, 0, 16)
	layers = append(layers, defaults...)
	invVars, _ := h.inventory()
	layers = append(layers, invVars, factVars(h.facts, h.moduleFacts), pr.play.Vars)
	layers = append(layers, pr.varsFiles...)
	layers = append(layers, roleVars...)
	layers = append(layers, levelVars...)
	layers = append(layers, h.setFacts)
	layers = append(layers, params...)
	layers = append(layers, h.incVars...)
	layers = append(layers, pr.rn.r.ExtraVars, pr.magic(h, role), extra)
	v := expr.NewVars(layers...)
	v.Env = pr.lookupEnv(role)
	return v
}

// magic returns the variables Ansible defines itself.
func (pr *playRun) magic(h *hostRun, role *playbooks.Role) map[string]any {
	m := map[string]any{
		"inventory_hostname":       h.name,
		"inventory_hostname_short": (*h.snap.Load())["inventory_hostname_short"],
		"group_names":              (*h.snap.Load())["group_names"],
		"groups":                   *pr.groups.Load(),
		"hostvars":                 pr.hostvars(),
		"playbook_dir":             pr.rn.pb.Dir,
		"play_hosts":               pr.batchNames,
		"ansible_play_hosts":       pr.batchNames,
		"ansible_play_batch":       pr.batchNames,
		"ansible_play_hosts_all":   pr.allNames,
		"ansible_play_name":        pr.name,
		"ansible_check_mode":       pr.rn.r.Check,
		"ansible_diff_mode":        pr.rn.r.Diff,
		"omit":                     expr.Omit,
	}
	if role != nil {
		m["role_name"] = role.Name
		m["role_path"] = role.Path
	}
	return m
}

// hostvars is the hostvars magic variable: every known host's variables,
// from each host's latest snapshot. Each entry is a scope of its own, so a
// templated variable of another host renders with that host's values, as
// in Ansible.
func (pr *playRun) hostvars() map[string]any {
	pr.rn.mu.Lock()
	defer pr.rn.mu.Unlock()
	out := make(map[string]any, len(pr.rn.hosts)+1)
	hosts := pr.rn.hosts
	if im := pr.rn.implicitLocal(); im != nil && hosts[im.name] == nil {
		hosts = maps.Clone(hosts)
		hosts[im.name] = im
	}
	for name, h := range hosts {
		hv := expr.NewVars(*h.snap.Load())
		hv.Env = pr.lookupEnv(nil)
		out[name] = hv
	}
	return out
}

// implicitLocal returns the implicit localhost's state (made on first
// use), or nil when the inventory defines localhost. The caller holds
// rn.mu.
func (rn *run) implicitLocal() *hostRun {
	if rn.implicit != nil {
		return rn.implicit
	}
	inv := rn.r.Inventory
	if inv.Host("localhost") != nil {
		return nil
	}
	hs, err := inv.Match([]string{"localhost"})
	if err != nil || len(hs) != 1 {
		return nil
	}
	if hr, err := newHostRun(inv, hs[0]); err == nil {
		rn.implicit = hr
	}
	return rn.implicit
}

// lookupEnv is what lookups (file, first_found, ...) search: the role's
// directory first, then the playbook's.
func (pr *playRun) lookupEnv(role *playbooks.Role) *expr.Env {
	env := &expr.Env{BaseDir: pr.rn.pb.Dir, NoWrite: pr.rn.r.Check}
	if role != nil {
		env.SearchPaths = append(env.SearchPaths, role.Path)
	}
	env.SearchPaths = append(env.SearchPaths, pr.rn.pb.Dir)
	return env
}

// loadVarsFiles reads a play's vars_files: each entry is a path, or a list
// of paths of which the first that exists is read. Paths may be templates
// over the play vars and extra vars and are relative to the playbook.
func (pr *playRun) loadVarsFiles(scope expr.Scope) ([]map[string]any, error) {
	var out []map[string]any
	for _, entry := range pr.play.VarsFiles {
		candidates, ok := entry.([]any)
		if !ok {
			candidates = []any{entry}
		}
		var found bool
		var tried []string
		for _, c := range candidates {
			v, err := expr.RenderDeep(c, scope)
			if err != nil {
				return nil, fmt.Errorf("vars_files: %w", err)
			}
			path := expr.Str(v)
			if !filepath.IsAbs(path) {
				path = filepath.Join(pr.rn.pb.Dir, path)
			}
			tried = append(tried, path)
			if _, err := os.Stat(path); err != nil && len(candidates) > 1 {
				continue
			}
			m, err := yaml11.ReadVars(path)
			if err != nil {
				return nil, err
			}
			out = append(out, m)
			found = true
			break
		}
		if !found {
			return nil, fmt.Errorf("vars_files: none of %v exists", tried)
		}
	}
	return out, nil
}
