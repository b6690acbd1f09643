package main

import (
	"fmt"
	"strings"
)

// Options selects what the generator draws beyond its base: Roles adds
// roles (defaults, vars, handlers, a template, dependencies), the play's
// roles: section and include_role/import_role tasks. The draws of a seed
// differ with and without an option; without any, they are the base's.
type Options struct {
	Roles bool
	// Vars adds group_vars, host_vars, inventory groups and their vars,
	// vars_files, and vars: on tasks and blocks.
	Vars bool
}

// Role is one role of a case, written below roles/NAME.
type Role struct {
	Name     string
	Defaults M
	Vars     M
	Tasks    []*Task
	Other    []*Task // tasks/other.yml, for tasks_from; nil for none
	Handlers []*Task
	Template string   // templates/t.j2; "" for none
	Deps     []any    // meta/main.yml's dependencies
	exposed  []string // the variables its defaults and vars define
}

// files are the role's files by their path in the case's directory.
func (r *Role) files() map[string]string {
	base := "roles/" + r.Name + "/"
	out := map[string]string{base + "tasks/main.yml": render(r.Tasks)}
	if r.Other != nil {
		out[base+"tasks/other.yml"] = render(r.Other)
	}
	if len(r.Defaults) > 0 {
		out[base+"defaults/main.yml"] = render(r.Defaults)
	}
	if len(r.Vars) > 0 {
		out[base+"vars/main.yml"] = render(r.Vars)
	}
	if len(r.Handlers) > 0 {
		out[base+"handlers/main.yml"] = render(r.Handlers)
	}
	if r.Template != "" {
		out[base+"templates/t.j2"] = r.Template
	}
	if len(r.Deps) > 0 {
		out[base+"meta/main.yml"] = render(M{{"dependencies", r.Deps}})
	}
	return out
}

func (r *Role) clone() *Role {
	n := *r
	n.Tasks = cloneTasks(r.Tasks)
	n.Other = cloneTasks(r.Other)
	n.Handlers = cloneTasks(r.Handlers)
	return &n
}

// roles makes the case's roles (one or two; the second may depend on
// the first) and maybe the play's roles: section. A role's defaults and
// vars either give a play variable another value of its type (variable
// precedence) or define a variable of their own, which tasks outside
// the role read through default: whether they see it is what is tested.
func (g *generator) roles() {
	n := 1 + g.r.Intn(2)
	for i := 1; i <= n; i++ {
		g.c.Roles = append(g.c.Roles, g.role(fmt.Sprintf("r%d", i)))
	}
	if len(g.c.Roles) == 2 && g.chance(40) {
		var dep any = "r1"
		if g.chance(50) {
			dep = M{{"role", "r1"}, {"vars", g.roleVars()}}
		}
		g.c.Roles[1].Deps = []any{dep}
	}
	if g.chance(50) {
		for _, r := range g.c.Roles {
			if g.chance(70) {
				g.c.PlayRoles = append(g.c.PlayRoles, g.roleRef(r.Name))
			}
		}
		if len(g.c.PlayRoles) > 0 && g.chance(25) {
			// A role listed again runs again only when its params
			// differ (allow_duplicates aside).
			g.c.PlayRoles = append(g.c.PlayRoles, g.c.PlayRoles[g.r.Intn(len(g.c.PlayRoles))])
		}
	}
	g.handlers = append(g.handlers, g.roleHandlers...)
	for _, r := range g.c.Roles {
		for _, v := range r.exposed {
			g.vars = append(g.vars, variable{v, g.roleVarType(v), false})
		}
	}
}

// roleVarType is the type of a variable a role defines: the last
// character of its name says it (see roleValue).
func (g *generator) roleVarType(name string) typ {
	return typ(name[len(name)-1] - '0')
}

// role makes one role. Its tasks see its defaults and vars as sure.
func (g *generator) role(name string) *Role {
	r := &Role{Name: name}
	saved := len(g.vars)
	for i := 0; i < 1+g.r.Intn(2); i++ {
		k, v, t := g.varValue(name + "_d")
		r.Defaults = append(r.Defaults, KV{k, v})
		g.vars = append(g.vars, variable{k, t, true})
		if strings.HasPrefix(k, name) {
			r.exposed = append(r.exposed, k)
		}
	}
	if g.chance(60) {
		k, v, t := g.varValue(name + "_v")
		r.Vars = append(r.Vars, KV{k, v})
		g.vars = append(g.vars, variable{k, t, true})
		if strings.HasPrefix(k, name) {
			r.exposed = append(r.exposed, k)
		}
	}
	g.vars = append(g.vars, variable{"role_name", tStr, true})
	if g.chance(50) {
		var lines []string
		for i := 0; i < 1+g.r.Intn(3); i++ {
			lines = append(lines, "{{ "+g.Expr(typ(g.r.Intn(int(nTypes))), 2)+" }}")
		}
		if g.chance(30) {
			lines = append(lines, "{% if "+g.Expr(tBool, 1)+" %}yes{% else %}no{% endif %}")
		}
		r.Template = strings.Join(lines, "\n") + "\n"
	}
	g.inRole = r
	g.depth++
	if g.chance(40) {
		r.Handlers = []*Task{g.handler(name + "_h")}
		g.handlers = append(g.handlers, name+"_h")
	}
	r.Tasks = g.tasks(1 + g.r.Intn(3))
	if g.chance(30) {
		r.Other = g.tasks(1 + g.r.Intn(2))
	}
	if r.Handlers != nil && g.chance(50) {
		// Handlers are the play's: tasks outside the role may notify
		// a role's handler.
		g.roleHandlers = append(g.roleHandlers, name+"_h")
	}
	if r.Handlers != nil {
		g.handlers = g.handlers[:len(g.handlers)-1]
	}
	g.depth--
	g.inRole = nil
	g.vars = g.vars[:saved]
	return r
}

// roleVars are the vars given to a role where it is used: a play
// variable with another value of its type.
func (g *generator) roleVars() M {
	if m := g.shadowVars(); m != nil {
		return m
	}
	return M{{"v0", g.value(tInt)}}
}

// roleRef is an entry of the play's roles: section.
func (g *generator) roleRef(name string) any {
	switch g.r.Intn(4) {
	case 0:
		return M{{"role", name}, {"vars", g.roleVars()}}
	case 1:
		ref := M{{"role", name}}
		return append(ref, g.roleVars()...)
	case 2:
		return M{{"role", name}, {"when", g.Expr(tBool, 1)}}
	}
	return name
}

// roleTask is an include_role or import_role task of one of the roles.
func (g *generator) roleTask() *Task {
	r := g.c.Roles[g.r.Intn(len(g.c.Roles))]
	dynamic := g.chance(60)
	args := M{{"name", r.Name}}
	if r.Other != nil && g.chance(50) {
		args = append(args, KV{"tasks_from", "other"})
	}
	if dynamic && g.chance(30) {
		args = append(args, KV{"public", Raw(g.pick([]string{"yes", "no"}))})
	}
	kind := "import_role"
	if dynamic {
		kind = "include_role"
	}
	t := &Task{}
	if g.chance(40) {
		t.Fields = append(t.Fields, KV{"name", g.taskName()})
	}
	t.Fields = append(t.Fields, KV{kind, args})
	if g.chance(40) {
		t.Fields = append(t.Fields, KV{"vars", g.roleVars()})
	}
	if g.chance(25) {
		t.Fields = append(t.Fields, KV{"when", g.Expr(tBool, 1)})
	}
	if dynamic && g.chance(20) {
		t.Fields = append(t.Fields, KV{"loop", []any{1, 2}[:1+g.r.Intn(2)]})
	}
	return t
}

// template is a template task of the role being made.
func (g *generator) template() M {
	return g.options("template", M{{"src", "t.j2"}, {"dest", g.pick(paths[:2])}})
}
