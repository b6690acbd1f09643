package playbooks

// Conditions returns every when: condition that must hold for the task to
// run, outermost first, as Ansible inherits them: those of the role uses
// it sits in (a dependency inherits its dependent role's), of the enclosing
// blocks and imports, then the task's own. Conditions above a dynamic
// include (include_tasks, include_role) are not inherited: Ansible
// evaluates them once, on the include itself. A play's own When (from an
// import_playbook) is not included.
func (t *Task) Conditions() []string {
	var out []string
	t.conditions(&out)
	return out
}

func (t *Task) conditions(out *[]string) {
	p := t.Parent
	switch {
	case p != nil && p.Role == t.Role:
		if !p.dynamic() {
			p.conditions(out)
		}
	default:
		// t is at the top of a role's task list (or of the play's).
		if p != nil && !p.dynamic() {
			p.conditions(out)
		}
		if p == nil || !p.dynamic() {
			roleConditions(t.Role, out)
		}
	}
	*out = append(*out, t.When...)
}

func roleConditions(r *Role, out *[]string) {
	if r == nil {
		return
	}
	roleConditions(r.Parent, out)
	*out = append(*out, r.When...)
}

// dynamic reports whether the task is an include evaluated at run time.
func (t *Task) dynamic() bool {
	return t.Kind == KindIncludeTasks || t.Kind == KindIncludeRole
}
