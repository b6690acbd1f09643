package playbooks

import (
	"fmt"
	"strings"
)

// ModuleTemplate reports whether t's module is a template (action:
// "{{ var }} k=v", or local_action:), which Ansible renders when the task
// runs; the engine renders it on each host and calls ResolveModule.
func (t *Task) ModuleTemplate() bool { return t.late != nil && t.Kind == KindModule }

// ResolveModule returns a copy of t running the module name, its module
// template rendered: t's arguments and keywords, the module found as Load
// finds one written plainly (a registry name, a playbook's library
// module). A name is resolved once; later calls return the same Task. It
// is safe for concurrent use. A name that is no module is Ansible's error
// for it.
func (t *Task) ResolveModule(name string) (*Task, error) {
	lt := t.late
	if !t.ModuleTemplate() {
		return t, nil
	}
	name = strings.TrimSpace(name)
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if r, ok := lt.done[name]; ok {
		return r, nil
	}
	c, file, action, ok := "", "", false, false
	if name != "" && !isTemplate(name) {
		c, file, action, ok = lt.l.moduleKnown(lt.sc, name)
	}
	if !ok {
		return nil, fmt.Errorf("The module %s was not found in configured module paths", name)
	}
	// The loader's own actions and those that steer the play (meta)
	// change the task list or the play, which Ansible decides before it
	// renders an action.
	if _, own := ownAction(c); own || c == importPlaybook || len(lt.l.mods.words(c)) > 0 {
		return nil, fmt.Errorf("%s cannot be the module of a task whose module is a template (%s)", c, t.Action)
	}
	r := *t
	r.late = nil
	r.Module = c
	if file != "" {
		if action {
			r.ActionPlugin, r.CollectionRoots = file, lt.l.collectionRoots(file)
		} else {
			r.ModuleFile, r.CollectionRoots = file, lt.l.collectionRoots(file)
		}
	}
	lt.done[name] = &r
	return &r, nil
}
