package collection

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// FS is what a Finder reads: the controller's files, through whatever
// policy the caller applies.
type FS interface {
	ReadFile(p string) ([]byte, error)
	Stat(p string) (fs.FileInfo, error)
	ReadDir(p string) ([]fs.DirEntry, error)
}

// Config is where a Finder looks.
type Config struct {
	// Paths are the collection paths in Ansible's order (the
	// playbook-adjacent collections directories, then COLLECTIONS_PATHS);
	// each holds an ansible_collections directory, or is one.
	Paths []string
	// More returns further paths (the controller Python's sys.path, as
	// COLLECTIONS_SCAN_SYS_PATH asks), looked in after Paths; it is
	// called once, only when a collection is not found in Paths. Nil for
	// none.
	More func() []string
	// IgnoreExts are the file endings that are never a module
	// (MODULE_IGNORE_EXTS).
	IgnoreExts []string
}

// A Finder resolves collection content. It is safe for concurrent use.
type Finder struct {
	fs  FS
	cfg Config

	mu       sync.Mutex
	roots    []string // ansible_collections directories
	moreDone bool
	colls    map[string]string // collection name → its directory, "" when none
	metas    map[string]*runtimeMeta
}

// New returns a Finder reading fsys.
func New(fsys FS, cfg Config) *Finder {
	f := &Finder{fs: fsys, cfg: cfg, colls: map[string]string{}, metas: map[string]*runtimeMeta{}}
	f.roots = f.addRoots(nil, cfg.Paths)
	return f
}

// addRoots appends to roots the ansible_collections directories of
// paths that have one, each once.
func (f *Finder) addRoots(roots, paths []string) []string {
	for _, p := range paths {
		if p == "" {
			continue
		}
		p = filepath.Clean(p)
		if filepath.Base(p) != "ansible_collections" {
			p = filepath.Join(p, "ansible_collections")
		}
		if !slices.Contains(roots, p) && f.isDir(p) {
			roots = append(roots, p)
		}
	}
	return roots
}

func (f *Finder) isDir(p string) bool {
	st, err := f.fs.Stat(p)
	return err == nil && st.IsDir()
}

func (f *Finder) isFile(p string) bool {
	st, err := f.fs.Stat(p)
	return err == nil && !st.IsDir()
}

// Roots lists the ansible_collections directories looked in, in order,
// the further paths (Config.More) included.
func (f *Finder) Roots() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.more()
	return slices.Clone(f.roots)
}

// more adds Config.More's paths once. f.mu is held.
func (f *Finder) more() {
	if f.moreDone || f.cfg.More == nil {
		f.moreDone = true
		return
	}
	f.moreDone = true
	f.roots = f.addRoots(f.roots, f.cfg.More())
}

// Collection returns the directory of the collection named name
// (namespace.name): in the first root that has it.
func (f *Finder) Collection(name string) (string, bool) {
	if !ValidCollectionName(name) || Synthetic(name) {
		return "", false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if d, ok := f.colls[name]; ok {
		return d, d != ""
	}
	ns, coll, _ := strings.Cut(name, ".")
	find := func() string {
		for _, r := range f.roots {
			if d := filepath.Join(r, ns, coll); f.isDir(d) {
				return d
			}
		}
		return ""
	}
	d := find()
	if d == "" && !f.moreDone {
		f.more()
		d = find()
	}
	f.colls[name] = d
	return d, d != ""
}

// Installed lists the collections found, namespace.name, sorted.
func (f *Finder) Installed() []string {
	var out []string
	for _, r := range f.Roots() {
		nss, _ := f.fs.ReadDir(r)
		for _, ns := range nss {
			if !ns.IsDir() || !identifier(ns.Name()) {
				continue
			}
			colls, _ := f.fs.ReadDir(filepath.Join(r, ns.Name()))
			for _, c := range colls {
				if n := ns.Name() + "." + c.Name(); c.IsDir() && ValidCollectionName(n) && !slices.Contains(out, n) {
					out = append(out, n)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// Role finds a role by name: a fully qualified one (ns.coll.role) in its
// collection, an unqualified one in each collection of the search list in
// turn (ansible.builtin and ansible.legacy hold no roles). It returns the
// role's directory and the collection that holds it; ok is false when no
// collection has it.
func (f *Finder) Role(name string, search []string) (dir, coll string, ok bool) {
	resource := name
	if r, isRef := ParseRef(name, true); isRef {
		search, resource = []string{r.Collection}, r.Resource
	} else if strings.Contains(name, ".") || strings.ContainsAny(name, `/\`) {
		return "", "", false
	}
	for _, c := range search {
		cd, found := f.Collection(c)
		if !found {
			continue
		}
		if d := filepath.Join(cd, "roles", resource); f.isDir(d) {
			return d, c, true
		}
	}
	return "", "", false
}

// Of returns the collection (namespace.name) that holds path, by its
// place below an ansible_collections directory; "" when none.
func Of(path string) string {
	parts := strings.Split(filepath.ToSlash(path), "/")
	for i := len(parts) - 3; i >= 0; i-- {
		if parts[i] == "ansible_collections" {
			if n := parts[i+1] + "." + parts[i+2]; ValidCollectionName(n) {
				return n
			}
		}
	}
	return ""
}

// RemovedError is a module's tombstone: the collection says it was
// removed.
type RemovedError struct {
	Name, Text string
}

func (e *RemovedError) Error() string {
	msg := e.Name + " has been removed."
	if e.Text != "" {
		msg += " " + e.Text
	}
	return msg
}

// redirectLimit bounds a chain of redirects.
const redirectLimit = 16

func loopError(chain []string) error {
	return fmt.Errorf("a redirect loop or a chain of more than %d redirects: %s", redirectLimit, strings.Join(chain, " -> "))
}
