package playbooks

// Level is one level of keywords a task inherits from: a role use, a
// block, an import or include, or the task itself.
type Level struct {
	*Keywords
	// VarsOnly is set for levels above a dynamic include (include_tasks,
	// include_role): Ansible passes their vars on to the included tasks,
	// but not their when, tags, ignore_errors or other keywords, which
	// applied to the include itself.
	VarsOnly bool
	// Task is the block, import, include or task of this level (nil for a
	// role use).
	Task *Task
	// Role is the role use of this level (nil for a task level).
	Role *Role
}

// Levels returns the levels the task inherits keywords from, outermost
// first, ending with the task itself: the role uses it sits in (the
// dependent role before its dependency), enclosing blocks, imports and
// includes. The play is not included: the engine starts from it. A later
// level overrides an earlier one for a scalar keyword; environment and
// vars merge, inner keys winning.
func (t *Task) Levels() []Level {
	var out []Level
	t.levels(&out, false)
	return out
}

func (t *Task) levels(out *[]Level, varsOnly bool) {
	p := t.Parent
	if p != nil {
		// Above a dynamic include, only vars reach the included tasks.
		p.levels(out, varsOnly || p.dynamic())
	}
	if t.Role != nil && (p == nil || p.Role != t.Role) {
		// t is at the top of its role's task list: the role use (and the
		// roles that depend on it) come between the parent and t.
		parentVarsOnly := varsOnly || (p != nil && p.dynamic())
		roleLevels(t.Role, out, parentVarsOnly)
	}
	*out = append(*out, Level{Keywords: &t.Keywords, VarsOnly: varsOnly, Task: t})
}

func roleLevels(r *Role, out *[]Level, varsOnly bool) {
	if r == nil {
		return
	}
	roleLevels(r.Parent, out, varsOnly)
	*out = append(*out, Level{Keywords: &r.Keywords, VarsOnly: varsOnly, Role: r})
}

// Conditions returns every when: condition that must hold for the task to
// run, outermost first, as Ansible inherits them: those of the role uses
// it sits in (a dependency inherits its dependent role's), of the enclosing
// blocks and imports, then the task's own. Conditions above a dynamic
// include (include_tasks, include_role) are not inherited: Ansible
// evaluates them once, on the include itself. A play's own When (from an
// import_playbook) is not included.
func (t *Task) Conditions() []string {
	var out []string
	for _, l := range t.Levels() {
		if !l.VarsOnly {
			out = append(out, l.When...)
		}
	}
	return out
}

// dynamic reports whether the task is an include evaluated at run time.
func (t *Task) dynamic() bool {
	return t.Kind == KindIncludeTasks || t.Kind == KindIncludeRole
}
