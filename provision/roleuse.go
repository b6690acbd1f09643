package provision

import (
	"context"
	"sync"

	"github.com/tender-sh/tender/playbooks"
)

// roleUses follows the role uses of a batch as Ansible's play does: a
// role of roles: or a dependency with the same parameters as one that
// already completed on a host is skipped there (unless the role allows
// duplicates). A use completes on a host that reached its end having
// had a task run (ok, changed or failed: not skipped, not unreachable),
// so a use whose tasks all skipped on a host runs again there. Roles
// that import_role and include_role load are never skipped so, and
// their own runs count for nothing here (Ansible keys their cache
// apart).
type roleUses struct {
	mu sync.Mutex
	// tasks are the engine's own tasks that run a use (Kind
	// KindImportRole, Target the use), by use.
	tasks map[*playbooks.Role]*playbooks.Task
	uses  map[*playbooks.Task]bool
	// ran and done: by use key (playbooks.Role.UseKey), the hosts that
	// had a task of it run, and those on which it completed.
	ran, done map[string]map[string]bool
}

// reset forgets the previous batch's uses.
func (u *roleUses) reset() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.tasks, u.uses = map[*playbooks.Role]*playbooks.Task{}, map[*playbooks.Task]bool{}
	u.ran, u.done = map[string]map[string]bool{}, map[string]map[string]bool{}
}

// use returns the task that runs the role use r.
func (u *roleUses) use(r *playbooks.Role) *playbooks.Task {
	u.mu.Lock()
	defer u.mu.Unlock()
	if t, ok := u.tasks[r]; ok {
		return t
	}
	t := &playbooks.Task{Kind: playbooks.KindImportRole, Target: r, Pos: r.Pos}
	u.tasks[r], u.uses[t] = t, true
	return t
}

// isUse reports whether t is a task use made.
func (u *roleUses) isUse(t *playbooks.Task) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.uses[t]
}

// mark records that a task of the role use r ran on host.
func (u *roleUses) mark(r *playbooks.Role, host string) {
	if r == nil || r.Included {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	k := r.UseKey()
	if u.ran[k] == nil {
		u.ran[k] = map[string]bool{}
	}
	u.ran[k][host] = true
}

// pending returns the hosts on which r has not completed.
func (u *roleUses) pending(r *playbooks.Role, hosts []*hostRun) []*hostRun {
	if r.AllowDuplicates {
		return hosts
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	done := u.done[r.UseKey()]
	out := make([]*hostRun, 0, len(hosts))
	for _, h := range hosts {
		if !done[h.name] {
			out = append(out, h)
		}
	}
	return out
}

// complete records r complete on the hosts that ran it to its end and
// had a task of it run.
func (u *roleUses) complete(r *playbooks.Role, hosts []*hostRun) {
	u.mu.Lock()
	defer u.mu.Unlock()
	k := r.UseKey()
	for _, h := range hosts {
		if h.active() && !h.failed && u.ran[k][h.name] {
			if u.done[k] == nil {
				u.done[k] = map[string]bool{}
			}
			u.done[k][h.name] = true
		}
	}
}

// runRoleUse runs the role use r (a roles: entry, a dependency) on the
// hosts where it has not completed.
func (pr *playRun) runRoleUse(ctx context.Context, hosts []*hostRun, r *playbooks.Role) {
	run := pr.roles.pending(r, hosts)
	if len(run) == 0 {
		return
	}
	pr.runList(ctx, run, pr.roleTasks(r))
	pr.roles.complete(r, run)
}

// roleTasks returns the tasks a use of r runs: a use of each of its
// dependencies (each skipped where it completed), then r's own.
func (pr *playRun) roleTasks(r *playbooks.Role) []*playbooks.Task {
	list := make([]*playbooks.Task, 0, len(r.Dependencies)+len(r.Tasks))
	for _, d := range r.Dependencies {
		list = append(list, pr.roles.use(d))
	}
	return append(list, r.Tasks...)
}
