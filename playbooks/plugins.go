package playbooks

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/tender-sh/tender/internal/collection"
)

// Python plugins. Ansible runs the filter and test plugins a playbook
// ships (filter_plugins/ and test_plugins/ beside it and in its roles)
// and those of collections (plugins/filter, plugins/test), called by
// their fully qualified names; a short name that ansible-core 2.14 sends
// to a collection (json_query) is routed there. The loader finds the
// files; running them is the caller's (a Python bridge).

// PluginFile is a Python plugin file and the prefix the names it gives
// take ("" for a playbook's or role's, "ns.coll." for a collection's).
type PluginFile struct {
	Path, Prefix string
}

// pluginFinder is what PluginFiles reads.
type pluginFinder struct {
	src   source
	dirs  []string // the playbook's and its roles' directories, in Ansible's order
	colls *collection.Finder
	// configured are Options.PluginPaths.
	configured map[string][]string
}

// pluginFinder keeps, after Load, where plugins are found.
func (l *loader) pluginFinder() *pluginFinder {
	var dirs []string
	if l.src.fsys == nil {
		// A playbook read from an fs.FS has no files Python could load.
		dirs = append([]string{l.pbDir}, l.rolePaths...)
	}
	// The files are the controller's, read through the sandbox.
	return &pluginFinder{src: source{sandbox: l.opts.Sandbox}, dirs: slices.Compact(dirs), colls: l.colls, configured: l.opts.PluginPaths}
}

// PluginFiles lists the Python files that may hold the plugin of kind
// (filter or test) called name, and the name it has there: for a fully
// qualified name, every file of its collection's plugins/KIND (a short
// name that ansible.builtin routes to a collection is looked for there,
// under its new name); else every file of the KIND_plugins directories
// beside the playbook and in its roles. No files when there are none.
func (pb *Playbook) PluginFiles(kind, name string) (string, []PluginFile) {
	f := pb.plugins
	if f == nil || kind != "filter" && kind != "test" {
		return name, nil
	}
	if !strings.Contains(name, ".") {
		if to, ok := collection.BuiltinRedirect(kind, name); ok {
			name = to
		}
	}
	if ref, ok := collection.ParseRef(name, false); ok {
		dir, ok := f.colls.Collection(ref.Collection)
		if !ok {
			return name, nil
		}
		return name, f.files(filepath.Join(dir, "plugins", kind), ref.Collection+".")
	}
	var out []PluginFile
	for _, d := range f.legacyDirs(kind, f.dirs) {
		out = append(out, f.files(d, "")...)
	}
	return name, out
}

// legacyDirs are the directories that hold plugins of kind by their
// short names: KIND_plugins in each of dirs (the playbook's, its
// roles'), then the configured ones.
func (f *pluginFinder) legacyDirs(kind string, dirs []string) []string {
	var out []string
	for _, d := range dirs {
		out = append(out, filepath.Join(d, kind+"_plugins"))
	}
	return append(out, f.configured[kind]...)
}

// files lists the Python files of dir.
func (f *pluginFinder) files(dir, prefix string) []PluginFile {
	ents, err := f.src.readDir(dir)
	if err != nil {
		return nil
	}
	var out []PluginFile
	for _, e := range ents {
		if n := e.Name(); !e.IsDir() && strings.HasSuffix(n, ".py") && n != "__init__.py" {
			out = append(out, PluginFile{Path: filepath.Join(dir, n), Prefix: prefix})
		}
	}
	return out
}

// LookupPlugin finds the Python lookup plugin called name: a
// lookup_plugins/NAME.py beside the playbook or in its roles (file set),
// or a collection's plugins/lookup by its fully qualified name (a short
// name ansible.builtin routes to a collection too; file empty: ansible-core
// loads it from the collection roots). name is the one to load it by.
func (pb *Playbook) LookupPlugin(name string) (lookup, file string, roots []string, ok bool) {
	f := pb.plugins
	if f == nil {
		return "", "", nil, false
	}
	return f.lookupPlugin(name, f.dirs)
}

func (f *pluginFinder) lookupPlugin(name string, dirs []string) (string, string, []string, bool) {
	if !strings.Contains(name, ".") {
		for _, d := range f.legacyDirs("lookup", dirs) {
			if p := filepath.Join(d, name+".py"); f.src.isFile(p) {
				return name, p, nil, true
			}
		}
		to, ok := collection.BuiltinRedirect("lookup", name)
		if !ok {
			return "", "", nil, false
		}
		name = to
	}
	ref, ok := collection.ParseRef(name, false)
	if !ok {
		return "", "", nil, false
	}
	dir, ok := f.colls.Collection(ref.Collection)
	if !ok || !f.src.isFile(filepath.Join(dir, "plugins", "lookup", filepath.Join(strings.Split(ref.Subdirs, ".")...), ref.Resource+".py")) {
		return "", "", nil, false
	}
	return name, "", f.colls.Roots(), true
}

// hasLookupPlugin reports whether a with_<name> loop names a Python
// lookup plugin the content (the playbook, the roles loaded so far) or a
// collection ships.
func (l *loader) hasLookupPlugin(name string) bool {
	f := l.pluginFinder()
	_, _, _, ok := f.lookupPlugin(name, f.dirs)
	return ok
}

// ActionGroup lists the modules of the action group module_defaults
// names group/NAME: ns.coll.group in that collection's meta/runtime.yml,
// a short name among ansible.builtin's (which extend the cloud
// collections'), as fully qualified names.
func (pb *Playbook) ActionGroup(name string) []string {
	if pb.plugins == nil {
		return nil
	}
	return pb.plugins.colls.ActionGroup(name)
}
