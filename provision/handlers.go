package provision

import (
	"encoding/json"
	"sync"

	"github.com/tender-sh/tender/playbooks"
)

// handlerList is a play's handlers as Ansible keeps them: a list of
// blocks (a handlers file's run of plain handlers is one block, an
// explicit block another), the roles' first (each role instance's
// dependencies before it), then those of imported roles, then the play's
// own handlers:, and an included role's appended when the include runs.
//
// A role instance is the same role with the same parameters (and, for an
// import or include, the same *_from files and vars): Ansible loads it
// once per play, so its handlers are the same objects wherever it comes
// back, and a notify that reaches one of them reaches that one.
type handlerList struct {
	mu     sync.Mutex
	blocks [][]*playbooks.Task
	roles  map[string][][]*playbooks.Task // by instance key
}

// newHandlerList collects the handlers of p known before it runs.
func newHandlerList(p *playbooks.Play) *handlerList {
	hl := &handlerList{roles: map[string][][]*playbooks.Task{}}
	for _, r := range p.Roles {
		hl.blocks = append(hl.blocks, hl.role(r, "")...)
	}
	seen := map[*playbooks.Role]bool{}
	for _, list := range [][]*playbooks.Task{p.PreTasks, p.Tasks, p.PostTasks} {
		playbooks.Walk(list, func(t *playbooks.Task) bool {
			if t.Kind == playbooks.KindImportRole && t.Target != nil && !seen[t.Target] {
				seen[t.Target] = true
				hl.blocks = append(hl.blocks, hl.role(t.Target, includeKey(t))...)
			}
			return true
		})
	}
	hl.blocks = append(hl.blocks, handlerBlocks(p.Handlers)...)
	return hl
}

// include appends the handlers of the role an include_role brings (inc
// resolved), as Ansible does each time it processes the include.
func (hl *handlerList) include(inc *playbooks.Task) {
	if inc.Target == nil {
		return
	}
	hl.mu.Lock()
	defer hl.mu.Unlock()
	hl.blocks = append(hl.blocks, hl.role(inc.Target, includeKey(inc))...)
}

// role returns the handler blocks of role instance r, its dependencies'
// first; inc is the include's part of the instance key ("" for roles:
// and dependencies). The caller holds mu or owns hl.
func (hl *handlerList) role(r *playbooks.Role, inc string) [][]*playbooks.Task {
	key := inc + "\x00" + r.UseKey()
	if b, ok := hl.roles[key]; ok {
		return b
	}
	var out [][]*playbooks.Task
	for _, d := range r.Dependencies {
		out = append(out, hl.role(d, "")...)
	}
	out = append(out, handlerBlocks(r.Handlers)...)
	hl.roles[key] = out
	return out
}

// includeKey is what tells two imports or includes of one role apart
// besides the role's own use key: the files read instead of main and the
// include's vars.
func includeKey(t *playbooks.Task) string {
	k := []any{"from"}
	for _, a := range []string{"tasks_from", "vars_from", "defaults_from", "handlers_from"} {
		k = append(k, t.Args[a])
	}
	b, _ := json.Marshal(append(k, t.Vars))
	return string(b)
}

// handlerBlocks splits a handlers list into Ansible's blocks: each run of
// plain handlers is one, each explicit block one of its own.
func handlerBlocks(list []*playbooks.Task) [][]*playbooks.Task {
	var out [][]*playbooks.Task
	var cur []*playbooks.Task
	for _, t := range expandImports(list) {
		if t.Kind == playbooks.KindBlock {
			if cur != nil {
				out = append(out, cur)
				cur = nil
			}
			out = append(out, []*playbooks.Task{t})
			continue
		}
		cur = append(cur, t)
	}
	if cur != nil {
		out = append(out, cur)
	}
	return out
}

// expandImports replaces the static imports of a handlers list (import_tasks,
// an include Ansible reads statically) by the handlers they bring, as
// Ansible does when it loads the handlers: each can be notified by name.
func expandImports(list []*playbooks.Task) []*playbooks.Task {
	var out []*playbooks.Task
	for _, t := range list {
		if t.Kind == playbooks.KindImportTasks {
			out = append(out, expandImports(t.Tasks)...)
			continue
		}
		out = append(out, t)
	}
	return out
}

// snapshot returns the blocks as they are now.
func (hl *handlerList) snapshot() [][]*playbooks.Task {
	hl.mu.Lock()
	defer hl.mu.Unlock()
	return hl.blocks[:len(hl.blocks):len(hl.blocks)]
}

// notified returns the handlers a notify of name reaches: by name, the
// first handler so named (or "role : name") in the last block that has
// one, as Ansible searches; and every handler that listens to name.
func (hl *handlerList) notified(name string) []*playbooks.Task {
	blocks := hl.snapshot()
	var out []*playbooks.Task
byName:
	for i := len(blocks) - 1; i >= 0; i-- {
		for _, hd := range blocks[i] {
			if handlerNamed(hd, name) {
				out = append(out, hd)
				break byName
			}
		}
	}
	for _, b := range blocks {
		for _, hd := range b {
			if contains(hd.Listen, name) {
				out = append(out, hd)
			}
		}
	}
	return out
}

// handlerNamed tells whether a notify of name names hd: its name, or its
// name prefixed with its role's as ansible-playbook shows it.
func handlerNamed(hd *playbooks.Task, name string) bool {
	if hd.Name == "" {
		return false
	}
	return hd.Name == name || (hd.Role != nil && hd.Role.Name+" : "+hd.Name == name)
}

func flatten(blocks [][]*playbooks.Task) []*playbooks.Task {
	var out []*playbooks.Task
	for _, b := range blocks {
		out = append(out, b...)
	}
	return out
}
