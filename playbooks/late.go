package playbooks

import (
	"maps"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// late is what an include_tasks or include_role keeps from its Load, so
// its target can be read once a host has rendered its name.
type late struct {
	l    *loader
	sc   *scope
	node *yaml.Node
	mu   *sync.Mutex // the loader's: resolutions of one Load share it
	done map[string]*Task
}

// Dynamic reports whether t is an include_tasks or include_role: the
// engine renders its name on each host and loads its target with Resolve,
// when the include runs, as Ansible does. A literal name's target is also
// read at load time as a preview (t.Tasks, t.Target), when it can be.
func (t *Task) Dynamic() bool { return t.late != nil && t.Kind != KindModule }

// Resolve loads the target of a Dynamic include once its name has been
// rendered: it returns a copy of t whose File and Tasks (include_tasks) or
// Target (include_role) are set, read exactly as Load reads a literal
// include. A name is loaded once; later calls return the same Task. It is
// safe for concurrent use. A target that cannot be found or read is an
// ErrorList whose entries name the include's file, line and column (or
// the line in the target that is wrong).
func (t *Task) Resolve(name string) (*Task, error) {
	lt := t.late
	if lt == nil {
		return t, nil
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if r, ok := lt.done[name]; ok {
		return r, nil
	}
	c := *t
	c.late = nil
	c.origin = t
	c.Args = maps.Clone(t.Args)
	key := "_raw_params"
	if c.Kind == KindIncludeRole {
		key = "name"
	} else {
		delete(c.Args, "file")
	}
	c.Args[key] = name
	l := lt.l
	l.errs = errs{}
	if isTemplate(strings.TrimSpace(name)) {
		l.errs.add(lt.sc.show(l), lt.node, "%s: %q is still a template after rendering", c.Module, name)
	} else {
		l.loadTarget(lt.sc, &c, lt.node, loadRun)
	}
	if len(l.errs.list) > 0 {
		list := dedupe(l.errs.list)
		for i, e := range list {
			if e.Pos.Line == 0 {
				// A whole file's error (a role file that cannot be
				// read) is the include's, at its line.
				list[i] = &Error{Pos: posOf(lt.sc.show(l), lt.node), Msg: e.Error(), Err: e}
			}
		}
		return nil, list
	}
	lt.done[name] = &c
	return &c, nil
}
