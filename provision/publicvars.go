package provision

import (
	"slices"

	"github.com/tender-sh/tender/playbooks"
)

// publicVars are the defaults and vars of the play's public roles, which
// every task of the play sees (Ansible's play roles, unless
// DEFAULT_PRIVATE_ROLE_VARS): the roles of roles:, the roles import_role
// loads, and those include_role loads with public: true once it ran.
// Each role counts its dependencies' first, as Ansible's role does.
type publicVars struct {
	defaults, vars []map[string]any
}

// with returns p and the roles' variables after them.
func (p *publicVars) with(roles ...*playbooks.Role) *publicVars {
	out := &publicVars{defaults: slices.Clone(p.defaults), vars: slices.Clone(p.vars)}
	for _, r := range roles {
		// The vars: each was given (a roles: entry's, a dependency's, an
		// import_role's) are exported with it, below its vars/main.yml,
		// as Ansible's play roles' are; its params not.
		for _, d := range append(allDependencies(r), r) {
			out.defaults = append(out.defaults, d.Defaults)
			out.vars = append(out.vars, d.Vars, d.RoleVars)
		}
	}
	return out
}

// allDependencies returns r's dependencies, each one's own before it.
func allDependencies(r *playbooks.Role) []*playbooks.Role {
	var out []*playbooks.Role
	for _, d := range r.Dependencies {
		out = append(append(out, allDependencies(d)...), d)
	}
	return out
}

// makePublic makes a role include_role loaded with public: true public
// for the rest of the play: its variables, and its name among the play's
// roles (ansible_play_role_names...).
func (pr *playRun) makePublic(r *playbooks.Role) {
	pr.publicMu.Lock()
	defer pr.publicMu.Unlock()
	pr.public.Store(pr.public.Load().with(r))
	pr.included = append(pr.included, r)
	names := pr.roleNames(pr.included...)
	pr.roleVars.Store(&names)
}
