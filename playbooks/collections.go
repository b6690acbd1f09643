package playbooks

import (
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/tender-sh/tender/internal/collection"
	"github.com/tender-sh/tender/internal/ctlpython"

	"go.yaml.in/yaml/v3"
)

// The collections keyword (play, block, task, and a role's meta/main.yml)
// lists the collections an unqualified module name is looked for in, in
// order, as Ansible's collection search list: a task takes its own list,
// else its block's, else its play's; a role's tasks take the role's list
// (its meta/main.yml), never the play's. Unless the list names
// ansible.builtin or ansible.legacy, ansible.legacy comes last (the
// builtin modules and those shipped with the content, library/).

// withCollections returns sc with the collection search list given by
// the collections entry among es, if there is one; sc itself otherwise.
// The list is read quietly here: the keyword's own decoding reports what
// is wrong with it.
func withCollections(sc *scope, es []entry) *scope {
	for _, e := range es {
		if e.key != "collections" {
			continue
		}
		list, ok := staticStrings(e.v)
		if !ok {
			return sc
		}
		inner := *sc
		inner.collections = list
		return &inner
	}
	return sc
}

// staticStrings is a list of plain strings (or one string) as written;
// ok is false for anything else.
func staticStrings(n *yaml.Node) ([]string, bool) {
	n = deref(n)
	switch {
	case n == nil:
		return nil, false
	case n.Kind == yaml.ScalarNode && n.Tag == "!!null":
		return []string{}, true
	case n.Kind == yaml.ScalarNode:
		return []string{n.Value}, true
	case n.Kind != yaml.SequenceNode:
		return nil, false
	}
	out := make([]string, 0, len(n.Content))
	for _, c := range n.Content {
		c = deref(c)
		if c.Kind != yaml.ScalarNode {
			return nil, false
		}
		out = append(out, c.Value)
	}
	return out, true
}

// searchNames lists the names an unqualified module name is looked up
// as, in the scope's collection search list's order; "" stands for the
// name as the builtin and content modules know it (ansible.legacy), and
// ansible.builtin.NAME for the builtin module only. A qualified name, or
// a scope with no list, is looked up as written.
func (sc *scope) searchNames(name string) []string {
	if sc.collections == nil || strings.Contains(name, ".") || strings.ContainsAny(name, "/\\") {
		return []string{name}
	}
	var out []string
	legacy := false
	for _, c := range sc.collections {
		switch c {
		case "ansible.legacy":
			out = append(out, name)
			legacy = true
		case "ansible.builtin":
			out = append(out, "ansible.builtin."+name)
			legacy = true
		default:
			out = append(out, c+"."+name)
		}
	}
	if !legacy {
		out = append(out, name)
	}
	return out
}

// collFS reads collections through the loader's source (the sandbox, or
// the FS of Options.FS).
type collFS struct{ src source }

func (c collFS) ReadFile(p string) ([]byte, error)       { return c.src.readFile(p) }
func (c collFS) Stat(p string) (fs.FileInfo, error)      { return c.src.stat(p) }
func (c collFS) ReadDir(p string) ([]fs.DirEntry, error) { return c.src.readDir(p) }

// newCollections makes the loader's collection finder: the collections
// directory beside the playbook, then Options.CollectionsPaths, then
// (ScanSysPath) the controller Python's sys.path. A playbook read from
// Options.FS has no directory beside it on the controller: its
// collections are those of the paths, read from the OS (through the
// sandbox).
func newCollections(src source, beside string, opts Options) *collection.Finder {
	cfg := collection.Config{Paths: append([]string{beside}, opts.CollectionsPaths...)}
	if opts.FS != nil {
		src = source{sandbox: opts.Sandbox}
		cfg.Paths = opts.CollectionsPaths
	}
	if opts.ScanSysPath {
		cfg.More = func() []string {
			if info, err := ctlpython.Load(); err == nil {
				return info.SysPath
			}
			return nil
		}
	}
	return collection.New(collFS{src}, cfg)
}

// collectionModule resolves name in the installed collections (an
// unqualified one through ansible.builtin's routing): a name of the chain
// of redirects that tender runs natively wins; else the collection's
// module file, or its action plugin. A removed module or a bad redirect
// is kept in collErrs for the task's error.
func (l *loader) collectionModule(name string) (canonical, file string, action, ok bool) {
	q := name
	if !strings.Contains(q, ".") {
		q = "ansible.builtin." + q
	}
	m, err := l.colls.Module(q)
	if err != nil {
		if l.collErrs == nil {
			l.collErrs = map[string]error{}
		}
		l.collErrs[name] = err
		return "", "", false, false
	}
	for _, n := range m.Chain[1:] {
		if c, ok := l.mods.known(n); ok {
			return c, "", false, true
		}
	}
	if m.ActionPlugin != "" {
		return m.Name(), m.ActionPlugin, true, true
	}
	if m.File == "" {
		return "", "", false, false
	}
	return m.Name(), m.File, false, true
}

// collectionError is the error resolving name in the collections gave,
// nil for none. (The loader is used by one goroutine at a time: Load,
// then resolutions under its mutex.)
func (l *loader) collectionError(name string) error {
	return l.collErrs[name]
}

// collectionRoots are the collection roots a module in file runs with:
// all of them for a collection's module, none for another.
func (l *loader) collectionRoots(file string) []string {
	if collection.Of(file) == "" {
		return nil
	}
	return l.colls.Roots()
}

// collectionPlaybook finds the playbook a fully qualified name
// (ns.coll[.subdirs].name, the name with or without .yml or .yaml) names
// in an installed collection's playbooks directory.
func (l *loader) collectionPlaybook(name string) (string, bool) {
	base, ext := name, ""
	for _, e := range []string{".yml", ".yaml"} {
		if strings.HasSuffix(name, e) {
			base, ext = strings.TrimSuffix(name, e), e
		}
	}
	ref, ok := collection.ParseRef(base, false)
	if !ok {
		return "", false
	}
	dir, ok := l.colls.Collection(ref.Collection)
	if !ok {
		return "", false
	}
	parts := append([]string{dir, "playbooks"}, strings.Split(ref.Subdirs, ".")...)
	stem := filepath.Join(append(parts, ref.Resource)...)
	exts := []string{ext}
	if ext == "" {
		exts = []string{"", ".yml", ".yaml"}
	}
	for _, e := range exts {
		if p := stem + e; l.src.isFile(p) {
			return p, true
		}
	}
	return "", false
}
