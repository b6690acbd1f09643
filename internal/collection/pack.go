package collection

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Packed is a collection module and the Python of the collections it
// imports (their module_utils), as a zip Python imports from: the
// ansible_collections package tree, each package with its __init__.py
// (an empty one where the collection has none), as Ansible packs a
// collection module.
type Packed struct {
	// Zip is the archive.
	Zip []byte
	// Name is tender-collection-<hash>.zip: the same content, the same name.
	Name string
	// Import is the module's dotted name, which python -m runs
	// (ansible_collections.ns.coll.plugins.modules.name).
	Import string
}

// Limits of what Pack reads.
const (
	maxPackBytes = 64 << 20
	maxPackFiles = 5000
)

// Pack packs the module in file, which must lie in a collection below one
// of roots (ansible_collections directories), with every file of the
// ansible_collections packages it imports, recursively: absolute imports
// (import/from ansible_collections.…) and relative ones (from ..module_utils
// import …). A collection it imports is looked for in the module's own
// root first, then in roots in order; the first root holding a
// collection is the one read for all of it.
func Pack(fsys FS, file string, roots []string) (*Packed, error) {
	root, rel, ok := splitRoot(file)
	if !ok {
		return nil, fmt.Errorf("%s is not in a collection (no ansible_collections directory above it)", file)
	}
	p := &packer{roots: append([]string{root}, roots...), fs: fsys, files: map[string][]byte{}}
	mod := strings.TrimSuffix(rel, filepath.Ext(rel))
	dotted := "ansible_collections." + strings.ReplaceAll(filepath.ToSlash(mod), "/", ".")
	body, err := fsys.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if err := p.add("ansible_collections/"+filepath.ToSlash(mod)+".py", body); err != nil {
		return nil, err
	}
	for len(p.queue) > 0 {
		name := p.queue[0]
		p.queue = p.queue[1:]
		if err := p.scan(name); err != nil {
			return nil, err
		}
	}
	z, err := p.zip()
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(z)
	return &Packed{Zip: z, Name: "tender-collection-" + hex.EncodeToString(sum[:8]) + ".zip", Import: dotted}, nil
}

// splitRoot splits a collection file's path into its ansible_collections
// directory and the rest (ns/coll/…).
func splitRoot(file string) (root, rel string, ok bool) {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(file)), "/")
	for i := len(parts) - 4; i >= 0; i-- {
		if parts[i] == "ansible_collections" && ValidCollectionName(parts[i+1]+"."+parts[i+2]) {
			return filepath.FromSlash(strings.Join(parts[:i+1], "/")), filepath.FromSlash(strings.Join(parts[i+1:], "/")), true
		}
	}
	return "", "", false
}

type packer struct {
	roots []string
	fs    FS
	files map[string][]byte // zip name → body
	queue []string          // zip names of Python files to scan
	total int
}

// add packs a file under its zip name (ansible_collections/…), with the
// __init__.py of each package above it, and queues it for scanning.
func (p *packer) add(name string, body []byte) error {
	if _, ok := p.files[name]; ok {
		return nil
	}
	if p.total += len(body); p.total > maxPackBytes || len(p.files) >= maxPackFiles {
		return fmt.Errorf("a collection module imports more than %d bytes or %d files of Python", maxPackBytes, maxPackFiles)
	}
	p.files[name] = body
	p.queue = append(p.queue, name)
	dir := filepath.ToSlash(filepath.Dir(name))
	for ; dir != "." && dir != "/"; dir = filepath.ToSlash(filepath.Dir(dir)) {
		init := dir + "/__init__.py"
		if _, ok := p.files[init]; ok {
			continue
		}
		b, _ := p.source(init)
		if err := p.add(init, b); err != nil {
			return err
		}
	}
	return nil
}

// source reads a zip name's file from the first root that has its
// collection; nil, false when that collection does not have it.
func (p *packer) source(name string) ([]byte, bool) {
	rel := strings.TrimPrefix(name, "ansible_collections/")
	parts := strings.Split(rel, "/")
	if len(parts) < 3 {
		return nil, false // ansible_collections/ns/__init__.py: a namespace
	}
	for _, r := range p.roots {
		if st, err := p.fs.Stat(filepath.Join(r, parts[0], parts[1])); err != nil || !st.IsDir() {
			continue
		}
		f := filepath.Join(r, filepath.FromSlash(rel))
		if st, err := p.fs.Stat(f); err != nil || st.IsDir() {
			return nil, false
		}
		b, err := p.fs.ReadFile(f)
		return b, err == nil
	}
	return nil, false
}

var (
	reFrom   = regexp.MustCompile(`(?m)^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)`)
	reImport = regexp.MustCompile(`(?m)^[ \t]*import[ \t]+([^\n#;]*)`)
)

// scan queues what the Python file name imports from ansible_collections.
func (p *packer) scan(name string) error {
	if !strings.HasSuffix(name, ".py") {
		return nil
	}
	body := p.files[name]
	pkg := strings.ReplaceAll(strings.TrimSuffix(filepath.ToSlash(filepath.Dir(name)), "/"), "/", ".")
	for _, m := range reFrom.FindAllSubmatch(body, -1) {
		mod := string(m[1])
		if strings.HasPrefix(mod, ".") {
			mod = relative(pkg, mod)
		}
		if !strings.HasPrefix(mod, "ansible_collections.") {
			continue
		}
		if err := p.module(mod); err != nil {
			return err
		}
		for _, n := range strings.FieldsFunc(strings.Trim(string(m[2]), "()"), func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\\' }) {
			if n == "as" || strings.HasPrefix(n, "#") {
				continue
			}
			if err := p.module(mod + "." + n); err != nil {
				return err
			}
		}
	}
	for _, m := range reImport.FindAllSubmatch(body, -1) {
		for _, part := range strings.Split(string(m[1]), ",") {
			mod, _, _ := strings.Cut(strings.TrimSpace(part), " ")
			if strings.HasPrefix(mod, "ansible_collections.") {
				if err := p.module(mod); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// relative resolves a relative import (".x", "..x") against package pkg.
func relative(pkg, mod string) string {
	dots := len(mod) - len(strings.TrimLeft(mod, "."))
	parts := strings.Split(pkg, ".")
	if dots-1 > len(parts) {
		return ""
	}
	base := strings.Join(parts[:len(parts)-(dots-1)], ".")
	if rest := mod[dots:]; rest != "" {
		return base + "." + rest
	}
	return base
}

// module packs the dotted module mod (a file, or a package's
// __init__.py) when some root has it; a name that is neither (a class,
// a function, a module that is not there) is left alone, as Python's
// import would fail or succeed without it.
func (p *packer) module(mod string) error {
	parts := strings.Split(mod, ".")
	if len(parts) < 4 || slices.Contains(parts, "") {
		return nil
	}
	path := strings.Join(parts, "/")
	for _, name := range []string{path + ".py", path + "/__init__.py"} {
		if _, ok := p.files[name]; ok {
			return nil
		}
		if b, ok := p.source(name); ok {
			return p.add(name, b)
		}
	}
	return nil
}

// zip writes the files, sorted, with a fixed time: the same files make
// the same zip.
func (p *packer) zip() ([]byte, error) {
	names := make([]string, 0, len(p.files))
	for n := range p.files {
		names = append(names, n)
	}
	slices.Sort(names)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	when := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, n := range names {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: n, Method: zip.Deflate, Modified: when})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(p.files[n]); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
