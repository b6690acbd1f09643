package playbooks

import "go.yaml.in/yaml/v3"

// apply reads an include_tasks' apply: (in the module's mapping or in
// args:) as the keywords of a block that holds the included tasks, as
// Ansible does: every block keyword is allowed, any other is an error at
// its position. include_role takes it too, for the role's tasks, handlers
// and dependencies.
func (l *loader) apply(sc *scope, t *Task, n *yaml.Node) {
	file := sc.show(l)
	node, at := l.applyNode(file, t, n)
	if t.Kind != KindIncludeTasks && t.Kind != KindIncludeRole {
		l.errs.add(file, at, "Invalid options for %s: apply", t.Module)
		return
	}
	if node == nil || deref(node).Kind != yaml.MappingNode {
		l.errs.add(file, at, "Expected a dict for apply but got %s", kindName(node))
		return
	}
	b := &Task{Pos: posOf(file, node), Parent: t, Role: sc.role, Handler: sc.handler}
	inner := *sc
	inner.parent = t
	inner.tags = nil
	var es []entry
	for _, e := range l.entries(file, node) {
		if e.key == "block" || e.key == "rescue" || e.key == "always" {
			l.errs.add(file, e.k, "apply: %s is not a keyword (apply takes a block's keywords)", e.key)
			continue
		}
		es = append(es, e)
	}
	t.Apply = l.block(&inner, b, es)
}

// applyNode finds the node of apply: in an include task's module mapping
// or its args:, and a node to report errors at.
func (l *loader) applyNode(file string, t *Task, n *yaml.Node) (*yaml.Node, *yaml.Node) {
	for _, e := range l.entries(file, n) {
		if e.key != "args" && l.mods.canonical(e.key) != t.Module {
			continue
		}
		if deref(e.v).Kind != yaml.MappingNode {
			continue
		}
		for _, a := range l.entries(file, e.v) {
			if a.key == "apply" {
				return a.v, a.k
			}
		}
	}
	return nil, n
}

// applied returns sc for what include t brings in: under t, and under its
// apply block when it has one (whose tags the included tasks inherit).
func applied(sc *scope, t *Task) *scope {
	if t.Apply == nil {
		return sc
	}
	ab := *t.Apply
	ab.Parent = t
	sc.parent = &ab
	sc.tags = mergeTags(sc.tags, ab.Tags)
	return sc
}
