package playbooks

import (
	"maps"
	"slices"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"

	"go.yaml.in/yaml/v3"
)

// moduleAndArgs finds the task's module among the candidate keys (or in
// action:/local_action:) and normalizes its arguments into t.Args the way
// Ansible's ModuleArgsParser does.
func (l *loader) moduleAndArgs(sc *scope, t *Task, n *yaml.Node, modules, unknown []entry, action, localAction *entry, argsNode *yaml.Node) {
	file := sc.show(l)
	base := l.extraArgs(file, argsNode)
	var name string
	var at *yaml.Node
	var args map[string]any
	var found []string
	if action != nil && localAction != nil {
		l.errs.add(file, localAction.k, "action and local_action are mutually exclusive")
	}
	for _, e := range []*entry{action, localAction} {
		if e == nil {
			continue
		}
		name, args = l.oldStyle(file, e.v)
		at = e.v
		found = append(found, name)
		if e.key == "local_action" {
			t.LocalAction = true
			t.DelegateTo = "localhost"
		}
		if name != "" && !isTemplate(name) {
			if _, _, _, ok := l.moduleKnown(sc, name); !ok {
				l.unresolved(file, e.v, name, l.mods.names)
				return
			}
		}
	}
	for _, e := range modules {
		found = append(found, e.key)
		name, at = e.key, e.v
		c, _, _, _ := l.moduleKnown(sc, name)
		args = l.newStyle(file, c, e.v)
	}
	if len(found) > 1 {
		l.errs.add(file, n, "conflicting action statements: %s", strings.Join(found, ", "))
		return
	}
	if name == "" {
		if len(unknown) > 0 {
			e := unknown[0]
			l.unresolved(file, e.k, e.key, append(slices.Clone(l.mods.names), keysOf(taskKeys)...))
		} else {
			l.errs.add(file, n, "no module/action detected in task")
		}
		return
	}
	for _, e := range unknown {
		l.unknownKey(file, e, "task", taskKeys)
	}
	t.Action = name
	t.Module = l.mods.canonical(name)
	if isTemplate(name) {
		// action: "{{ var }} …": the module is known only when the task
		// runs (ResolveModule), as Ansible templates it then.
		t.Module = name
		l.later(sc, t, n)
	} else if c, f, action, ok := l.moduleKnown(sc, name); ok && f == "" {
		t.Module = c
	} else if f != "" {
		t.Module = c
		if action {
			t.ActionPlugin, t.CollectionRoots = f, l.collectionRoots(f)
		} else {
			t.ModuleFile, t.CollectionRoots = f, l.collectionRoots(f)
		}
	}
	// args: under the module's own arguments, in the order of Python's
	// dict update.
	b := pydict.NewBuilder(len(base) + len(args))
	for _, m := range []map[string]any{base, args} {
		for _, k := range pydict.Keys(m) {
			b.Set(k, m[k])
		}
	}
	merged := b.Map()
	if raw, ok := merged["_raw_params"].(string); ok && raw != "" && !l.mods.rawParams(t.Module) {
		if isTemplate(raw) {
			delete(merged, "_raw_params")
			merged["_variable_params"] = raw
		} else {
			l.errs.add(file, at, "this task %q has extra params (%q): only free-form modules (shell, command, raw, script, meta, include_*, set_fact, …) take words that are not k=v",
				name, raw)
		}
	}
	if _, ok := merged["cmd"]; ok && l.mods.cmdParam(t.Module) {
		// cmd: is the old name of the free-form command, as Ansible treats it.
		if raw, _ := merged["_raw_params"].(string); raw != "" {
			l.errs.add(file, at, "the 'cmd' argument cannot be used when other raw parameters are specified")
		} else {
			merged["_raw_params"] = merged["cmd"]
			delete(merged, "cmd")
		}
	}
	t.Args = merged
	if a, ok := ownAction(t.Module); ok {
		t.Kind = a.kind
	}
	if t.OldInclude() {
		// Legacy include is static when its file is literal, it has no loop
		// and no dynamic include encloses it (Ansible 2.14's rule).
		if raw, _ := merged["_raw_params"].(string); !isTemplate(raw) && t.Loop == nil && allParentsStatic(sc.parent) {
			t.Kind = KindImportTasks
		}
	}
}

func allParentsStatic(p *Task) bool {
	for ; p != nil; p = p.Parent {
		if p.Kind == KindIncludeTasks || p.Kind == KindIncludeRole {
			return false
		}
	}
	return true
}

// extraArgs reads a task's args: keyword: a mapping, k=v text, or a
// template naming a mapping (kept under _variable_params).
func (l *loader) extraArgs(file string, n *yaml.Node) map[string]any {
	if !isNode(n) {
		return nil
	}
	switch v := l.value(file, n).(type) {
	case map[string]any:
		return v
	case string:
		if isTemplate(v) {
			return map[string]any{"_variable_params": v}
		}
		l.errs.add(file, n, "args must be a mapping (or a template naming one), not the string %q", v)
	default:
		l.errs.add(file, n, "args must be a mapping, not %s", typeName(v))
	}
	return nil
}

// newStyle normalizes "module: value": a mapping, a k=v string (free form
// for shell/command/raw/script), or nothing.
func (l *loader) newStyle(file, module string, n *yaml.Node) map[string]any {
	n = deref(n)
	switch {
	case n.Kind == yaml.MappingNode:
		m, _ := l.value(file, n).(map[string]any)
		return m
	case !isNode(n):
		return nil
	case n.Kind == yaml.ScalarNode:
		return l.kv(file, n, l.str(file, module, n), l.mods.freeForm(module))
	default:
		l.errs.add(file, n, "the arguments of %s must be a mapping or a k=v string, not %s", module, kindName(n))
		return nil
	}
}

// oldStyle normalizes action:/local_action: — "module k=v …" or a mapping
// with module: and the arguments.
func (l *loader) oldStyle(file string, n *yaml.Node) (string, map[string]any) {
	n = deref(n)
	switch {
	case n.Kind == yaml.ScalarNode && isNode(n):
		s := l.str(file, "action", n)
		words, err := SplitArgs(s)
		if err != nil || len(words) == 0 {
			l.errs.wrap(file, n, err, "cannot parse action %q: %v", s, errOr(err, "empty"))
			return "", nil
		}
		name := strings.TrimSpace(words[0])
		return name, l.kv(file, n, strings.Join(words[1:], " "), l.mods.freeForm(name))
	case n.Kind == yaml.MappingNode:
		m, _ := l.value(file, n).(map[string]any)
		mod, _ := m["module"].(string)
		if mod == "" {
			l.errs.add(file, n, "action: a mapping needs a module: key")
			return "", nil
		}
		delete(m, "module")
		words, err := SplitArgs(mod)
		if err != nil || len(words) == 0 {
			l.errs.wrap(file, n, err, "cannot parse module %q", mod)
			return "", nil
		}
		name := strings.TrimSpace(words[0])
		maps.Copy(m, l.kv(file, n, strings.Join(words[1:], " "), l.mods.freeForm(name)))
		return name, m
	default:
		l.errs.add(file, n, "action must be a string or a mapping, not %s", kindName(n))
		return "", nil
	}
}

// kv parses a k=v argument string, reporting a quoting error at n.
func (l *loader) kv(file string, n *yaml.Node, s string, freeForm bool) map[string]any {
	pairs, raw, err := ParseKV(s, freeForm)
	if err != nil {
		l.reported[n] = true // one error for the string is enough
		l.errs.wrap(file, n, err, "%v: %s", err, s)
		return nil
	}
	m := pydict.NewBuilder(len(pairs) + 1)
	for _, p := range pairs {
		m.Set(p.Key, p.Value)
	}
	if raw != "" {
		m.Set("_raw_params", raw)
	}
	return m.Map()
}

func errOr(err error, s string) string {
	if err != nil {
		return err.Error()
	}
	return s
}

// RawParams is a task's free-form argument, spaces trimmed ("" when it
// has none): a meta task's action ("flush_handlers", …).
func (t *Task) RawParams() string {
	s, _ := t.Args["_raw_params"].(string)
	return strings.TrimSpace(s)
}

// checkTask validates what can be validated of a decoded task: an action
// whose free-form argument is one of some words (meta's) has one of them.
func (l *loader) checkTask(file string, t *Task) {
	if t.Kind != KindModule {
		return
	}
	if words := l.mods.words(t.Module); len(words) > 0 {
		if m := t.RawParams(); !slices.Contains(words, m) && !isTemplate(m) {
			l.errs.add(file, nodeAt(t.Pos), "invalid %s action %q%s", t.Module, m, didYouMean(m, words))
		}
	}
}

// nodeAt makes a stand-in node for a position already computed.
func nodeAt(p Pos) *yaml.Node { return &yaml.Node{Line: p.Line, Column: p.Col} }

// unresolved reports a module name that resolves to nothing: the
// collections' own error for it (a removed module, a bad redirect), else
// Ansible's, with the nearest known name.
func (l *loader) unresolved(file string, at *yaml.Node, name string, known []string) {
	if err := l.collectionError(name); err != nil {
		l.errs.add(file, at, "%s", err.Error())
		return
	}
	l.errs.add(file, at, "couldn't resolve module/action %q%s", name, didYouMean(name, known))
}
