package playbooks

// Level is one level of keywords a task inherits from: a role use, a
// block, an import or include, or the task itself.
type Level struct {
	*Keywords
	// VarsOnly is set for a dynamic include (include_tasks, include_role)
	// above the task, and for the role use an include_role makes: Ansible
	// passes their vars on to the included tasks, but not their when,
	// tags, ignore_errors or other keywords, which applied to the include
	// itself. The levels above the include are inherited in full, as
	// Ansible's included blocks reach past the include to its parent.
	VarsOnly bool
	// Task is the block, import or include or task of this level (nil
	// for a role use).
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

// levels appends t's levels to out; varsOnly says whether t's own level
// gives only its vars (t is a dynamic include above the task asked for).
func (t *Task) levels(out *[]Level, varsOnly bool) {
	p := t.Parent
	if p != nil {
		p.levels(out, p.dynamic())
	}
	if t.Role != nil && (p == nil || p.Role != t.Role) {
		// t is at the top of its role's task list: the role use (and the
		// roles that depend on it) come between the parent and t.
		roleLevels(t.Role, out, p != nil && p.dynamic())
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
// blocks and imports, then the task's own. A dynamic include's own
// conditions (include_tasks, include_role) are not inherited: Ansible
// evaluates them once, on the include itself; those of the blocks above
// it are, and hold again for each included task. A play's own When (from
// an import_playbook) is not included.
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

// EffectiveNotify returns the handlers the task notifies: its own notify:,
// else the innermost enclosing block's or import's, as Ansible inherits
// notify (not merged: a task's own list replaces its parents').
func (t *Task) EffectiveNotify() []string {
	levels := t.Levels()
	for i := len(levels) - 1; i >= 0; i-- {
		if l := levels[i]; !l.VarsOnly && l.Notify != nil {
			return l.Notify
		}
	}
	return nil
}
