package playbooks

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// includeKeywords are the only task keywords include_tasks and
// include_role take (Ansible's VALID_INCLUDE_KEYWORDS): the others would
// apply to nothing, since a dynamic include passes only its vars on.
var includeKeywords = set(nil, "action", "args", "collections", "debugger", "ignore_errors",
	"loop", "loop_control", "name", "no_log", "register", "run_once", "tags", "timeout", "vars", "when")

// include resolves an include or import task: it reads the task file or
// role when its name is literal. Imports pass their tags on to the tasks
// they bring; dynamic includes do not (as in Ansible, their tags and when
// apply to the include itself).
func (l *loader) include(sc *scope, t *Task, n *yaml.Node) {
	file := sc.show(l)
	at := n
	if t.Loop != nil && (t.Kind == KindImportTasks || t.Kind == KindImportRole) {
		if t.OldInclude() {
			l.errs.add(file, at, "you cannot use 'static' on an include with a loop")
		} else {
			l.errs.add(file, at, "you cannot use loops on %q statements; use %q instead", t.Module, strings.Replace(t.Module, "import", "include", 1))
		}
	}
	if a, _ := ownAction(t.Module); a.options != nil {
		opts := a.options
		for _, k := range sortedKeys(t.Args) {
			if !opts[k] {
				l.errs.add(file, at, "invalid option for %s: %s%s", t.Module, k, didYouMean(k, keysOf(opts)))
			}
		}
	} else if t.OldInclude() {
		// Legacy include: "include: file.yml a=1" makes a and friends vars.
		for k, v := range t.Args {
			if k != "_raw_params" && k != "file" {
				if t.Vars == nil {
					t.Vars = map[string]any{}
				}
				t.Vars[k] = v
			}
		}
	}
	if (t.Kind == KindIncludeTasks || t.Kind == KindIncludeRole) && !t.OldInclude() {
		for _, e := range l.entries(file, n) {
			if !includeKeywords[e.key] && l.mods.canonical(e.key) != t.Module && !strings.HasPrefix(e.key, "with_") {
				l.errs.add(file, e.k, "%q is not a valid attribute for %s (it takes only %s; use apply: to pass keywords to the included tasks)",
					e.key, t.Module, strings.Join(keysOf(includeKeywords), ", "))
			}
		}
	}
	if f, ok := t.Args["file"]; ok && t.Kind != KindImportRole && t.Kind != KindIncludeRole {
		// file: is another spelling of the free-form name, as in Ansible.
		if raw, _ := t.Args["_raw_params"].(string); raw == "" {
			t.Args["_raw_params"] = f
			delete(t.Args, "file")
		}
	}
	if _, ok := t.Args["apply"]; ok {
		l.apply(sc, t, n)
	}
	if t.Kind == KindIncludeTasks || t.Kind == KindIncludeRole {
		// Dynamic: Ansible finds and reads the target when the include
		// runs for a host, so the engine resolves it then (Resolve).
		l.later(sc, t, n)
		l.preview(sc, t, n)
		return
	}
	l.loadTarget(sc, t, n, loadStatic)
}

// loadMode says why an include's target is being read.
type loadMode int

const (
	loadStatic  loadMode = iota // an import, at load time: errors are errors
	loadPreview                 // a literal include, at load time: errors become warnings
	loadRun                     // an include resolved for a host at run time (Resolve)
)

// preview reads a literal include's target at load time: what walks the
// tree (tags, listings, the modules a playbook uses) sees its tasks, and
// the run reuses them. Ansible reads it only when the include runs, so a
// target that cannot be read is a warning here (Playbook.Warnings), and an
// error on each host that reaches the include.
func (l *loader) preview(sc *scope, t *Task, n *yaml.Node) {
	name := includeName(t)
	if name == "" || isTemplate(name) {
		return
	}
	saved := l.errs
	l.errs = errs{}
	c := *t
	c.late = nil
	c.origin = t
	c.Args = maps.Clone(t.Args)
	l.loadTarget(sc, &c, n, loadPreview)
	if len(l.errs.list) > 0 {
		l.warns.list = append(l.warns.list, dedupe(l.errs.list)...)
	} else if c.Tasks != nil || c.Target != nil {
		t.File, t.Tasks, t.Target = c.File, c.Tasks, c.Target
		t.late.done[name] = &c
	}
	l.errs = saved
}

// includeName is the file (include_tasks) or role (include_role) an
// include names, as written.
func includeName(t *Task) string {
	key := "_raw_params"
	if t.Kind == KindIncludeRole || t.Kind == KindImportRole {
		key = "name"
	}
	s, _ := t.Args[key].(string)
	return s
}

// loadTarget reads what an include or import brings: its task file or
// role.
func (l *loader) loadTarget(sc *scope, t *Task, n *yaml.Node, mode loadMode) {
	file := sc.show(l)
	at := n
	switch t.Kind {
	case KindImportRole, KindIncludeRole:
		l.includeRole(sc, t, n)
		return
	}
	path, _ := t.Args["_raw_params"].(string)
	path = strings.TrimSpace(path)
	if path == "" {
		l.errs.add(file, at, "%s needs a file name", t.Module)
		return
	}
	if isTemplate(path) {
		l.later(sc, t, n) // known only at run time
		return
	}
	abs, ok := l.findTaskFile(sc, path)
	if !ok {
		l.errs.add(file, at, "could not find or access %q (searched %s)", path, strings.Join(l.showAll(l.taskFileCandidates(sc, path)), ", "))
		return
	}
	t.File = l.show(abs)
	switch {
	case len(sc.stack) > maxDepth:
		l.errs.add(file, at, "includes nested more than %d deep (%s)", maxDepth, t.File)
		return
	case slices.Contains(sc.stack, abs) && mode == loadPreview:
		// A file that includes itself, under a condition that ends the
		// recursion at run time: each level is read when it runs.
		t.File = ""
		return
	case slices.Contains(sc.stack, abs) && mode == loadStatic:
		l.errs.add(file, at, "include loop: %s includes itself", t.File)
		return
	}
	top, ok := l.read(abs, file, at, "task file")
	if !ok {
		return
	}
	inner := &scope{play: sc.play, pbdir: sc.pbdir, file: abs, dir: filepath.Dir(abs), role: sc.role, parent: t,
		handler: sc.handler, tags: sc.tags, stack: append(slices.Clone(sc.stack), abs), collections: sc.collections}
	if t.Kind == KindImportTasks {
		inner.tags = t.EffectiveTags
	}
	// The included tasks sit in the apply block, under this include.
	t.Tasks = l.taskList(applied(inner, t), top, "the task file")
	if t.Tasks == nil {
		t.Tasks = []*Task{}
	}
}

// taskFileCandidates lists where Ansible looks for a relative task file,
// first found wins. In a role: for a file included from an included file,
// the role's tasks/ then the including file's directory; then the role's
// tasks/ (handlers/ then tasks/ for an include among handlers), the role's
// own directory, and the playbook's directory (its tasks/ or handlers/,
// then itself). Outside a role: beside the including file, then the
// playbook's directory.
func (l *loader) taskFileCandidates(sc *scope, path string) []string {
	if filepath.IsAbs(path) {
		return []string{path}
	}
	var c []string
	if sc.role != nil {
		sub := "tasks"
		if sc.handler {
			sub = "handlers"
		}
		if nestedInclude(sc.parent) {
			c = append(c, filepath.Join(sc.role.Path, "tasks", path), filepath.Join(sc.dir, path))
		}
		c = append(c, filepath.Join(sc.role.Path, sub, path), filepath.Join(sc.role.Path, "tasks", path),
			filepath.Join(sc.role.Path, path), filepath.Join(sc.pbdir, sub, path), filepath.Join(sc.pbdir, path))
	} else {
		c = append(c, filepath.Join(sc.dir, path), filepath.Join(sc.pbdir, path), filepath.Join(l.pbDir, path))
	}
	return uniq(c)
}

// nestedInclude reports whether a task list lies inside a file that an
// include or import brought in (its parent chain holds one).
func nestedInclude(t *Task) bool {
	for ; t != nil; t = t.Parent {
		switch t.Kind {
		case KindIncludeTasks, KindImportTasks:
			return true
		}
	}
	return false
}

// uniq drops repeated paths, keeping the first of each.
func uniq(paths []string) []string {
	seen := map[string]bool{}
	out := paths[:0]
	for _, p := range paths {
		p = filepath.Clean(p)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

func (l *loader) findTaskFile(sc *scope, path string) (string, bool) {
	for _, c := range l.taskFileCandidates(sc, path) {
		if l.src.isFile(c) {
			return filepath.Clean(c), true
		}
	}
	return "", false
}

func (l *loader) showAll(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = l.show(filepath.Clean(p))
	}
	return out
}

// includeRole resolves import_role/include_role: name: … with tasks_from.
func (l *loader) includeRole(sc *scope, t *Task, n *yaml.Node) {
	file := sc.show(l)
	name, _ := t.Args["name"].(string)
	if name == "" {
		l.errs.add(file, n, "%s needs a role name (name: …)", t.Module)
		return
	}
	if isTemplate(name) {
		l.later(sc, t, n)
		return
	}
	from := func(k string) string { s, _ := t.Args[k].(string); return s }
	ref := &Role{Pos: t.Pos, Name: name, Included: true}
	if t.Kind == KindImportRole {
		// An import's vars: are the role's, which the play's roles
		// export to the whole play (Ansible's play roles).
		ref.Vars = t.Vars
	}
	if b, ok := t.Args["allow_duplicates"].(bool); ok {
		ref.AllowDuplicates = b
	}
	tags := sc.tags
	if t.Kind == KindImportRole {
		tags = t.EffectiveTags
	}
	parent := applied(&scope{play: sc.play, pbdir: sc.pbdir, file: sc.file, dir: sc.dir, role: sc.role, parent: t, tags: tags, stack: sc.stack}, t)
	files := roleFiles{
		tasks: from("tasks_from"), vars: from("vars_from"), defaults: from("defaults_from"), handlers: from("handlers_from"),
	}
	if v, given := t.Args["rolespec_validate"]; given {
		b, ok := v.(bool)
		if !ok {
			l.errs.add(file, n, "rolespec_validate of %s must be a boolean known when the playbook is read, not %v", t.Module, v)
			return
		}
		files.noValidate = !b
	}
	t.Target = l.loadRole(parent, ref, n, files)
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// later keeps what Resolve needs to load t's target at run time.
func (l *loader) later(sc *scope, t *Task, n *yaml.Node) {
	t.late = &late{l: l, sc: sc, node: n, mu: &l.mu, done: map[string]*Task{}}
}
