package playbooks

import (
	"path/filepath"
	"slices"
	"strings"
)

// Modules that ship with the content. Ansible looks for a module it does
// not know in library/ beside the playbook, in the library/ of every role
// loaded so far (a role's library joins the search path for the rest of
// the run), and in the module path (-M, ANSIBLE_LIBRARY); an action
// plugin, likewise, in action_plugins/. A task naming such a module gets
// Task.ModuleFile; one naming an action plugin gets Task.ActionPlugin, which
// the engine refuses when the task runs (it is Python for Ansible's
// controller).

// contentModule finds the file of a module or action plugin that ships
// with the content, for a name tender does not know. ok is false when
// there is none.
func (l *loader) contentModule(sc *scope, name string) (file string, action bool, ok bool) {
	name = strings.TrimPrefix(name, "ansible.legacy.")
	if name == "" || strings.ContainsAny(name, "/.\\") {
		return "", false, false // a path, or a collection's module: not in library/
	}
	for _, dir := range l.contentDirs(sc, "library") {
		if f := l.findModuleFile(dir, name); f != "" {
			return f, false, true
		}
	}
	for _, dir := range append(l.contentDirs(sc, "action_plugins"), l.opts.PluginPaths["action"]...) {
		if f := filepath.Join(dir, name+".py"); l.src.isFile(f) {
			return f, true, true
		}
	}
	return "", false, false
}

// contentDirs lists the directories named sub where content modules are
// looked for, in Ansible's order: the module path (library only), beside
// the playbooks, then the roles' (the scope's role and those depending on
// it first, then every role loaded so far).
func (l *loader) contentDirs(sc *scope, sub string) []string {
	var dirs []string
	if sub == "library" {
		dirs = append(dirs, l.opts.ModulePath...)
	}
	dirs = append(dirs, filepath.Join(sc.pbdir, sub), filepath.Join(l.pbDir, sub))
	for r := sc.role; r != nil; r = r.Parent {
		dirs = append(dirs, filepath.Join(r.Path, sub))
	}
	for _, p := range l.rolePaths {
		dirs = append(dirs, filepath.Join(p, sub))
	}
	return uniq(dirs)
}

// findModuleFile returns the file in dir that is module name: the file so
// named, else name with an extension (name.py first), "" for none.
func (l *loader) findModuleFile(dir, name string) string {
	if f := filepath.Join(dir, name); l.src.isFile(f) {
		return f
	}
	if f := filepath.Join(dir, name+".py"); l.src.isFile(f) {
		return f
	}
	ents, err := l.src.readDir(dir)
	if err != nil {
		return ""
	}
	var found []string
	for _, e := range ents {
		base := e.Name()
		if ext := filepath.Ext(base); ext != "" && strings.TrimSuffix(base, ext) == name && !e.IsDir() {
			found = append(found, filepath.Join(dir, base))
		}
	}
	slices.Sort(found)
	if len(found) > 0 {
		return found[0]
	}
	return ""
}

// moduleKnown reports whether name (as written) is a module the task may
// use: one tender runs, or one that ships with the content when the run
// allows those (the LibraryModule name is among Options.Modules). It
// returns the canonical name and the content module's file, if any. An
// unqualified name is looked for in the scope's collections first
// (searchNames); each name is tender's, else library/'s, else an
// installed collection's (collectionModule).
func (l *loader) moduleKnown(sc *scope, name string) (canonical, file string, action, ok bool) {
	for _, n := range sc.searchNames(name) {
		if c, ok := l.mods.known(n); ok {
			return c, "", false, true
		}
		if !l.mods.content {
			continue
		}
		if f, action, ok := l.contentModule(sc, n); ok {
			return strings.TrimPrefix(n, "ansible.legacy."), f, action, true
		}
		if c, f, action, ok := l.collectionModule(n); ok {
			return c, f, action, true
		}
	}
	return "", "", false, false
}

// LibraryModule is the name that, among Options.Modules, lets a playbook
// use modules that ship with it (library/, the module path): a run whose
// registry leaves it out refuses them, as it refuses any module it does
// not allow.
const LibraryModule = "library"
