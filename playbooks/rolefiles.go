package playbooks

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/internal/pydict"
)

// roleExtensions are the endings Ansible tries for a role's files, in
// its order: main (no name given) as main.yml, main.yaml, main.json,
// then main itself (a directory, for vars and defaults); a name given
// (tasks_from: …) as written first.
func roleExtensions(named bool) []string {
	if named {
		return []string{"", ".yml", ".yaml", ".json"}
	}
	return []string{".yml", ".yaml", ".json", ""}
}

// roleFilePaths finds sub/name of a role as Ansible does: the first of
// name's endings that exists; a directory is skipped unless allowDir
// (vars and defaults), and then stands for every file under it, sorted,
// its subdirectories walked, hidden and backup (~) files and files with
// other endings left out.
func (l *loader) roleFilePaths(r *Role, sub, name string, allowDir bool) []string {
	exts := roleExtensions(name != "")
	if name == "" {
		name = "main"
	}
	base := filepath.Join(r.Path, sub, name)
	for _, ext := range exts {
		p := base + ext
		switch {
		case l.src.isDir(p):
			if !allowDir {
				continue
			}
			return l.roleDirFiles(p, exts)
		case l.src.isFile(p):
			return []string{p}
		}
	}
	return nil
}

// roleDirFiles lists the files of a vars or defaults directory, as
// roleFilePaths describes.
func (l *loader) roleDirFiles(dir string, exts []string) []string {
	entries, err := l.src.readDir(dir)
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, ".") || strings.HasSuffix(n, "~") {
			continue
		}
		p, ext := filepath.Join(dir, n), filepath.Ext(n)
		switch {
		case ext == "" && l.src.isDir(p):
			out = append(out, l.roleDirFiles(p, exts)...)
		case l.src.isFile(p) && slices.Contains(exts, ext):
			out = append(out, p)
		}
	}
	return out
}

// roleFile reads sub/name of a role (tasks, handlers, meta); a missing
// file is only an error when it was asked for by name (tasks_from: …).
func (l *loader) roleFile(r *Role, sub, name string, required bool) (*yaml.Node, string) {
	paths := l.roleFilePaths(r, sub, name, false)
	if len(paths) == 0 {
		if required {
			l.errs.add(r.Pos.File, nodeAt(r.Pos), "role %s has no %s file %q", r.Name, sub, name)
		}
		return nil, ""
	}
	top, ok := l.read(paths[0], "", nil, "role file")
	if !ok || !isNode(top) {
		return nil, paths[0]
	}
	return top, paths[0]
}

// roleVars reads a role's vars or defaults (sub): one file, or every
// file of a directory of that name, later files' variables replacing
// earlier ones' (Ansible's combine_vars, hash_behaviour=replace); empty
// files count for nothing.
func (l *loader) roleVars(r *Role, sub, name string) map[string]any {
	paths := l.roleFilePaths(r, sub, name, true)
	if len(paths) == 0 {
		if name != "" {
			l.errs.add(r.Pos.File, nodeAt(r.Pos), "role %s has no %s file %q", r.Name, sub, name)
		}
		return nil
	}
	if len(paths) == 1 {
		return l.roleVarsFile(paths[0], sub)
	}
	out := pydict.NewBuilder(0)
	for _, p := range paths {
		v := l.roleVarsFile(p, sub)
		for _, k := range pydict.Keys(v) {
			out.Set(k, v[k])
		}
	}
	return out.Map()
}

// roleVarsFile reads one vars or defaults file of a role.
func (l *loader) roleVarsFile(path, sub string) map[string]any {
	top, ok := l.read(path, "", nil, "role file")
	if !ok || !isNode(top) {
		return nil
	}
	show := l.show(path)
	v := l.vars(show, sub, top)
	l.checkTree(show, top, "")
	return v
}
