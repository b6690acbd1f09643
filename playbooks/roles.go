package playbooks

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/tender-sh/tender/internal/collection"

	"go.yaml.in/yaml/v3"
)

// roleFiles name the files of a role to read instead of main
// (import_role's tasks_from, vars_from, …); "" means main.
type roleFiles struct {
	tasks, vars, defaults, handlers string
	// noValidate: rolespec_validate: false, no argument spec check.
	noValidate bool
}

// roleList decodes a play's roles: a list of names and mappings.
func (l *loader) roleList(sc *scope, n *yaml.Node) []*Role {
	file := sc.show(l)
	n = deref(n)
	if !isNode(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		l.errs.add(file, n, "roles must be a list, not %s", kindName(n))
		return nil
	}
	var out []*Role
	for _, item := range n.Content {
		if r := l.roleRef(sc, item); r != nil {
			out = append(out, r)
		}
	}
	return out
}

// roleRef decodes one role reference ("name" or {role: name, keywords,
// params}) and loads the role.
func (l *loader) roleRef(sc *scope, n *yaml.Node) *Role {
	file := sc.show(l)
	n = deref(n)
	r := &Role{Pos: posOf(file, n)}
	switch n.Kind {
	case yaml.ScalarNode:
		r.Name = l.str(file, "role", n)
	case yaml.MappingNode:
		l.checkTree(file, n, "")
		for _, e := range l.entries(file, n) {
			switch {
			case e.key == "role" || e.key == "name":
				r.Name = l.str(file, e.key, e.v)
			case roleKeys[e.key] && l.keyword(file, e, &r.Keywords):
			default:
				if r.Params == nil {
					r.Params = map[string]any{}
				}
				r.Params[e.key] = l.value(file, e.v)
			}
		}
	default:
		l.errs.add(file, n, "a role must be a name or a mapping, not %s", kindName(n))
		return nil
	}
	if r.Name == "" {
		l.errs.add(file, n, "role definitions must contain a role name (role: or name:)")
		return nil
	}
	if isTemplate(r.Name) {
		l.errs.add(file, n, "role name %q is a template: roles: needs names known when the playbook is read", r.Name)
		return nil
	}
	return l.loadRole(sc, r, n, roleFiles{})
}

// roleDirs lists where a role name is looked for: roles/ beside the
// playbook that holds the play (and beside the top playbook, for an
// imported one), Options.RolesPath, beside the role that depends on it,
// and the playbook's directory itself.
func (l *loader) roleDirs(sc *scope) []string {
	dirs := []string{filepath.Join(sc.pbdir, "roles"), filepath.Join(l.pbDir, "roles")}
	dirs = append(dirs, l.opts.RolesPath...)
	if sc.role != nil {
		dirs = append(dirs, filepath.Dir(sc.role.Path))
	}
	return slices.Compact(append(dirs, sc.pbdir))
}

// findRole resolves a role name to its directory as Ansible does: the
// name (which may hold slashes: a path below a search directory) joined
// to each search directory in turn, then, as a last resort, the name as a
// path of its own, when the role's name is its last element (byPath).
func (l *loader) findRole(sc *scope, name string) (path string, byPath, ok bool) {
	for _, d := range l.roleDirs(sc) {
		c := name
		if !filepath.IsAbs(name) {
			c = filepath.Join(d, name)
		}
		if l.src.isDir(c) {
			return filepath.Clean(c), false, true
		}
	}
	if strings.Contains(name, "/") && l.src.isDir(name) {
		return filepath.Clean(name), true, true
	}
	return "", false, false
}

// collectionRole finds a role in the installed collections, as Ansible
// looks first: a fully qualified name (ns.coll.role) in its collection,
// an unqualified one in the scope's collection search list.
func (l *loader) collectionRole(sc *scope, name string) (path, coll string, ok bool) {
	if _, fq := collection.ParseRef(name, true); !fq && len(sc.collections) == 0 {
		return "", "", false
	}
	return l.colls.Role(name, sc.collections)
}

// roleCollections is the collection search list of a role's tasks: a
// collection's role searches its own collection first; then the list of
// its meta/main.yml; and a list that names neither ansible.builtin nor
// ansible.legacy ends with ansible.builtin for a collection's role,
// ansible.legacy for another. A role with no list has none.
func roleCollections(own string, meta []string) []string {
	var list []string
	if own != "" {
		list = append(list, own)
	}
	for _, c := range meta {
		if !slices.Contains(list, c) {
			list = append(list, c)
		}
	}
	if len(list) == 0 {
		return meta
	}
	if !slices.Contains(list, "ansible.builtin") && !slices.Contains(list, "ansible.legacy") {
		if own != "" {
			list = append(list, "ansible.builtin")
		} else {
			list = append(list, "ansible.legacy")
		}
	}
	return list
}

// knownRoles lists the role names found in the search directories, for
// "did you mean".
func (l *loader) knownRoles(sc *scope) []string {
	var names []string
	for _, d := range l.roleDirs(sc) {
		ents, _ := l.src.readDir(d)
		for _, e := range ents {
			if e.IsDir() {
				names = append(names, e.Name())
			}
		}
	}
	return names
}

// loadRole finds r by name and reads its defaults, vars, tasks, handlers
// and meta (dependencies first loaded as roles of their own).
func (l *loader) loadRole(sc *scope, r *Role, at *yaml.Node, files roleFiles) *Role {
	file := sc.show(l)
	path, coll, inColl := l.collectionRole(sc, r.Name)
	byPath, ok := false, inColl
	if inColl {
		r.Name, r.Collection = coll+"."+filepath.Base(path), coll
	} else if path, byPath, ok = l.findRole(sc, r.Name); byPath {
		r.Name = filepath.Base(path)
	}
	if !ok {
		l.errs.add(file, at, "the role %q was not found in %s%s", r.Name,
			strings.Join(l.showAll(l.roleDirs(sc)), ":"), didYouMean(r.Name, l.knownRoles(sc)))
		return nil
	}
	r.Path = path
	r.Parent = sc.role
	r.from = files
	if !slices.Contains(l.rolePaths, path) && !inColl {
		// A collection's role brings no library/ or action_plugins/.
		l.rolePaths = append(l.rolePaths, path)
	}
	for p := sc.role; p != nil; p = p.Parent {
		if p.Path == path && p.from == files && len(p.Params) == 0 && len(r.Params) == 0 {
			l.errs.add(file, at, "role dependency loop: %s depends on itself", r.Name)
			return nil
		}
	}
	if depth(sc.role) > maxDepth {
		l.errs.add(file, at, "role dependencies nested too deep at %s", r.Name)
		return nil
	}
	tags := mergeTags(sc.tags, r.Tags)
	rs := &scope{play: sc.play, pbdir: sc.pbdir, role: r, parent: sc.parent, tags: tags, stack: sc.stack}
	var metaSpecs *yaml.Node
	metaFile := ""
	if top, abs := l.roleFile(r, "meta", "main", false); top != nil {
		rs.file, metaFile = abs, abs
		metaSpecs = l.roleMeta(rs, top)
	}
	rs.collections = roleCollections(r.Collection, rs.collections)
	r.Defaults = l.roleVars(r, "defaults", files.defaults)
	r.RoleVars = l.roleVars(r, "vars", files.vars)
	if top, abs := l.roleFile(r, "tasks", files.tasks, files.tasks != ""); top != nil {
		ts := *rs
		ts.file, ts.dir, ts.parent = abs, filepath.Dir(abs), sc.parent
		ts.stack = append(slices.Clone(sc.stack), abs)
		r.Tasks = l.taskList(&ts, top, "tasks")
	}
	if !files.noValidate {
		specs, specFile := l.roleArgSpecs(r, metaSpecs, metaFile)
		ts := *rs
		ts.dir, ts.parent = filepath.Join(r.Path, "tasks"), sc.parent
		if t := l.argSpecTask(&ts, r, specs, specFile, files.tasks); t != nil {
			r.Tasks = append([]*Task{t}, r.Tasks...)
		}
	}
	if top, abs := l.roleFile(r, "handlers", files.handlers, files.handlers != ""); top != nil {
		hs := *rs
		hs.file, hs.dir, hs.handler = abs, filepath.Dir(abs), true
		hs.stack = append(slices.Clone(sc.stack), abs)
		r.Handlers = l.taskList(&hs, top, "handlers")
	}
	return r
}

func depth(r *Role) int {
	n := 0
	for ; r != nil; r = r.Parent {
		n++
	}
	return n
}

// roleMeta reads meta/main.yml: dependencies and allow_duplicates. It
// returns argument_specs, for roleArgSpecs.
func (l *loader) roleMeta(rs *scope, top *yaml.Node) (specs *yaml.Node) {
	file := rs.show(l)
	r := rs.role
	if deref(top).Kind != yaml.MappingNode {
		l.errs.add(file, top, "meta/main.yml must be a mapping, not %s", kindName(top))
		return nil
	}
	for _, e := range l.entries(file, top) {
		switch e.key {
		case "dependencies":
			deps := deref(e.v)
			if !isNode(deps) {
				continue
			}
			if deps.Kind != yaml.SequenceNode {
				l.errs.add(file, deps, "dependencies must be a list, not %s", kindName(deps))
				continue
			}
			// A collection's role finds its dependencies in its own
			// collection first.
			ds := *rs
			if ds.collections = nil; r.Collection != "" {
				ds.collections = []string{r.Collection, "ansible.legacy"}
			}
			for _, d := range deps.Content {
				if dep := l.roleRef(&ds, d); dep != nil {
					r.Dependencies = append(r.Dependencies, dep)
				}
			}
		case "allow_duplicates":
			r.AllowDuplicates = l.boolean(file, e.key, e.v).True()
		case "argument_specs":
			specs = e.v
		case "collections":
			// The role's own search list (collections.go), for its tasks
			// and handlers.
			rs.collections = l.strList(file, e.key, e.v)
			if rs.collections == nil {
				rs.collections = []string{}
			}
		case "galaxy_info":
		default:
			l.errs.add(file, e.k, "%q is not a valid attribute for role metadata%s", e.key,
				didYouMean(e.key, []string{"dependencies", "allow_duplicates", "galaxy_info", "argument_specs", "collections"}))
		}
	}
	return specs
}
