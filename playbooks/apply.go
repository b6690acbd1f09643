package playbooks

import "go.yaml.in/yaml/v3"

// apply reads an include_tasks' apply: (in the module's mapping or in
// args:) as the keywords of a block that holds the included tasks, as
// Ansible does: every block keyword is allowed, any other is an error at
// its position. include_role's apply is refused: tender does not wrap a
// role's tasks in it yet.
func (l *loader) apply(sc *scope, t *Task, n *yaml.Node) {
	file := sc.show(l)
	node, at := l.applyNode(file, t, n)
	if t.Kind != KindIncludeTasks {
		l.errs.add(file, at, "%s: apply: is not supported by tender (only include_tasks takes it)", t.Module)
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
