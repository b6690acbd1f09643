package playbooks

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// DisplayName is the task's name as ansible-playbook prints it: a named
// task inside a role is "role : name"; an unnamed task is the module as
// written, without the role (as Ansible does). Templates in the name are
// not evaluated here.
func (t *Task) DisplayName() string {
	switch {
	case t.Name != "" && t.Role != nil:
		return t.Role.Name + " : " + t.Name
	case t.Name != "":
		return t.Name
	case t.Kind == KindBlock:
		return "block"
	case t.Kind == KindIncludeRole:
		// Ansible's include_role is "action : role" unnamed, wherever
		// it is.
		if name, ok := t.Args["name"].(string); ok && name != "" {
			return t.Action + " : " + name
		}
		return t.Action
	case t.Role != nil && t.Kind != KindIncludeTasks:
		// ansible-playbook names an unnamed role task "role : action",
		// but not an include.
		return t.Role.Name + " : " + t.Action
	default:
		return t.Action
	}
}

// Walk calls fn for each task of the list and, depth first, for every task
// inside it: a block's block, rescue and always, an import's or literal
// include's tasks, and the tasks of an imported or included role. It stops
// descending into a task for which fn returns false.
func Walk(tasks []*Task, fn func(*Task) bool) {
	for _, t := range tasks {
		if !fn(t) {
			continue
		}
		Walk(t.Block, fn)
		Walk(t.Rescue, fn)
		Walk(t.Always, fn)
		Walk(t.Tasks, fn)
		if t.Target != nil {
			walkRole(t.Target, fn)
		}
	}
}

func walkRole(r *Role, fn func(*Task) bool) {
	for _, d := range r.Dependencies {
		walkRole(d, fn)
	}
	Walk(r.Tasks, fn)
	Walk(r.Handlers, fn)
}

// walkAll returns every task of a play, handlers and roles included.
func walkAll(p *Play) []*Task {
	var out []*Task
	add := func(t *Task) bool { out = append(out, t); return true }
	Walk(p.PreTasks, add)
	for _, r := range p.Roles {
		walkRole(r, add)
	}
	Walk(p.Tasks, add)
	Walk(p.PostTasks, add)
	Walk(p.Handlers, add)
	return out
}

// PublicRoles returns the play's roles as Ansible's play holds them:
// those of its roles: section, then every role an import_role loads, in
// the order Ansible reads the play: the roles' tasks (each role's
// dependencies' before its own), pre_tasks, post_tasks, then tasks; an
// imported role comes after the roles its own tasks import, since Ansible
// adds it once it has read it. A role imported twice is there twice. Their
// defaults and vars are what every task of the play sees, and their names
// are ansible_play_role_names. Roles that include_role loads with public:
// true join them when the include runs, not here.
func (p *Play) PublicRoles() []*Role {
	out := slices.Clone(p.Roles)
	var walk func(tasks []*Task)
	var role func(r *Role)
	walk = func(tasks []*Task) {
		for _, t := range tasks {
			switch t.Kind {
			case KindIncludeTasks, KindIncludeRole:
				continue // loaded when it runs
			case KindImportRole:
				if t.Target != nil {
					role(t.Target)
					out = append(out, t.Target)
				}
				continue
			}
			walk(t.Block)
			walk(t.Rescue)
			walk(t.Always)
			walk(t.Tasks)
		}
	}
	role = func(r *Role) {
		for _, d := range r.Dependencies {
			role(d)
		}
		walk(r.Tasks)
		walk(r.Handlers)
	}
	for _, r := range p.Roles {
		role(r)
	}
	walk(p.PreTasks)
	walk(p.PostTasks)
	walk(p.Tasks)
	return out
}

// RoleOrder returns the roles of the play's roles: section in the order
// they run: each role's dependencies before it, and a role already run
// with the same parameters left out unless it allows duplicates.
func (p *Play) RoleOrder() []*Role {
	var out []*Role
	seen := map[string]bool{}
	for _, r := range p.Roles {
		out = r.appendRun(out, seen)
	}
	return out
}

// DependencyOrder returns the roles r's dependencies bring, in the order
// they run (each one's own dependencies first), leaving out a role use
// that seen holds (the same role with the same parameters ran already in
// the play) unless the role allows duplicates; the uses it returns are
// added to seen (see UseKey).
func (r *Role) DependencyOrder(seen map[string]bool) []*Role {
	var out []*Role
	for _, d := range r.Dependencies {
		out = d.appendRun(out, seen)
	}
	return out
}

func (r *Role) appendRun(out []*Role, seen map[string]bool) []*Role {
	out = append(out, r.DependencyOrder(seen)...)
	k := r.UseKey()
	if seen[k] && !r.AllowDuplicates {
		return out
	}
	seen[k] = true
	return append(out, r)
}

// UseKey identifies a role use: the same role with the same parameters,
// vars, conditions, tags and files (tasks_from...), and loaded the same
// way (a play's role or dependency, or import_role/include_role), runs
// once in a play, as Ansible caches roles by these.
func (r *Role) UseKey() string {
	f := r.from
	k, _ := json.Marshal([]any{r.Params, r.Vars, r.When, r.Tags, r.Included, f.tasks, f.vars, f.defaults, f.handlers})
	return r.Path + "\x00" + string(k)
}

// Listed is one line of a task listing.
type Listed struct {
	Task *Task
	// Name is the display name ("role : task").
	Name string
	// Tags are the task's effective tags.
	Tags []string
}

// ListTasks lists the play's tasks as ansible-playbook --list-tasks does:
// pre_tasks, the roles (dependencies first, every use listed), tasks and
// post_tasks; a block shows its block: tasks (not rescue or always), an
// import shows the tasks it brings, and a dynamic include shows itself.
func (p *Play) ListTasks() []Listed {
	var out []Listed
	var list func(ts []*Task)
	var role func(r *Role)
	list = func(ts []*Task) {
		for _, t := range ts {
			switch t.Kind {
			case KindBlock:
				list(t.Block)
			case KindImportTasks:
				list(t.Tasks)
			case KindImportRole:
				if t.Target != nil {
					role(t.Target)
				}
			default:
				// ansible-playbook lists a named task by its name
				// ("role : name" in a role), an unnamed one by its
				// action alone.
				name := t.Action
				if t.Name != "" {
					name = t.DisplayName()
				}
				out = append(out, Listed{Task: t, Name: name, Tags: t.EffectiveTags})
			}
		}
	}
	role = func(r *Role) {
		for _, d := range r.Dependencies {
			role(d)
		}
		list(r.Tasks)
	}
	list(p.PreTasks)
	for _, r := range p.Roles {
		role(r)
	}
	list(p.Tasks)
	list(p.PostTasks)
	return out
}

// FormatListTasks prints a playbook's plays and tasks in the layout of
// ansible-playbook --list-tasks. Ansible templates a play's hosts pattern
// before printing it; render does that here (nil prints it as written).
func (pb *Playbook) FormatListTasks(render func(hosts string) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nplaybook: %s\n", pb.Path)
	for i, p := range pb.Plays {
		hosts := p.Hosts
		if render != nil {
			hosts = render(hosts)
		}
		name := p.Name
		if name == "" {
			name = hosts
		}
		// Ansible joins a play's tags with "," in set order; sorted here.
		fmt.Fprintf(&b, "\n  play #%d (%s): %s\tTAGS: [%s]\n", i+1, hosts, name, strings.Join(mergeTags(p.Tags), ","))
		b.WriteString("    tasks:\n")
		for _, t := range p.ListTasks() {
			fmt.Fprintf(&b, "      %s\tTAGS: [%s]\n", t.Name, strings.Join(t.Tags, ", "))
		}
	}
	return b.String()
}

// AllHandlers returns the play's handlers in the order Ansible considers
// them: the handlers of the roles of roles: (dependencies first, each role
// use once, see RoleOrder), then those of roles brought by import_role in
// the play's task lists, then the play's own handlers:. Notify resolves
// against this list by name and listen topic.
func (p *Play) AllHandlers() []*Task {
	var out []*Task
	for _, r := range p.RoleOrder() {
		out = append(out, r.Handlers...)
	}
	seen := map[*Role]bool{}
	var imported func(r *Role)
	imported = func(r *Role) {
		if seen[r] {
			return
		}
		seen[r] = true
		for _, d := range r.Dependencies {
			imported(d)
		}
		out = append(out, r.Handlers...)
	}
	for _, list := range [][]*Task{p.PreTasks, p.Tasks, p.PostTasks} {
		Walk(list, func(t *Task) bool {
			if t.Kind == KindImportRole && t.Target != nil {
				imported(t.Target)
			}
			return true
		})
	}
	return append(out, p.Handlers...)
}

// Modules returns the canonical names of the modules the playbook's tasks
// run, sorted, each once: every play's tasks, handlers and roles, and the
// files imported or included by a literal name. What an include whose
// file name is a template brings in is known only when it runs.
func (pb *Playbook) Modules() []string {
	seen := map[string]bool{}
	for _, p := range pb.Plays {
		for _, t := range walkAll(p) {
			if t.Kind == KindModule && t.Module != "" {
				seen[t.Module] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}
