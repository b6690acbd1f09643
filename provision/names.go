package provision

import (
	"strings"
	"sync"

	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/tasks"
)

// markedNames are the host and group names that add_host and group_by
// took from marked values (a name that came from a host's output): the
// magic variables that list names (inventory_hostname, group_names,
// groups, play_hosts, ...) give them marked, so that a template that
// reads one never renders the name itself, as in Ansible, where such a
// name stays the unsafe string it was given as. Names from the inventory
// are plain.
type markedNames struct{ m sync.Map }

// note records v's text as a marked name when v is marked, and returns
// the text.
func (n *markedNames) note(v any) string {
	s := tasks.ToText(v)
	if tasks.IsMarked(v) {
		n.m.Store(s, true)
	}
	return s
}

// value is name as a magic variable gives it.
func (n *markedNames) value(name string) any {
	if _, ok := n.m.Load(name); ok {
		return yaml11.Unsafe(name)
	}
	return name
}

// short is inventory_hostname_short of name.
func (n *markedNames) short(name string) any {
	return tasks.Keep(n.value(name), strings.SplitN(name, ".", 2)[0])
}

// values lists names as a magic variable gives them.
func (n *markedNames) values(names []string) []any {
	out := make([]any, len(names))
	for i, s := range names {
		out[i] = n.value(s)
	}
	return out
}

// groups is the groups magic variable with its host names as values
// gives them (its keys, group names, are Go map keys and stay plain).
func (n *markedNames) groups(g map[string]any) map[string]any {
	some := false
	n.m.Range(func(any, any) bool { some = true; return false })
	if !some {
		return g
	}
	out := make(map[string]any, len(g))
	for k, v := range g {
		l, _ := v.([]any)
		ml := make([]any, len(l))
		for i, e := range l {
			ml[i] = n.value(tasks.ToText(e))
		}
		out[k] = ml
	}
	return out
}
