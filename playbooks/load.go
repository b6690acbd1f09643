package playbooks

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/internal/collection"
	"github.com/tender-sh/tender/internal/fqcn"
	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/sandbox"
)

// Options control Load.
type Options struct {
	// Modules are the modules the caller can run: the registry the run
	// will use (builtin.Registry(), or a Restrict of it). A task naming
	// a module it does not hold fails to load. The loader's own actions
	// (include_*, import_*) are known besides; the engine's own (setup,
	// meta, ...) every *tasks.Registry knows. Required.
	Modules Modules
	// Hosts is the host pattern for a file that is a bare list of tasks
	// rather than plays (agent playbooks often are); "" means "all".
	Hosts string
	// RolesPath are more directories to look for roles in, after roles/
	// beside the playbook and the playbook's own directory.
	RolesPath []string
	// Vars are the extra variables (-e): a templated import_playbook
	// path is rendered with them (and the import's vars) when the
	// playbook is read, as Ansible does.
	Vars map[string]any
	// ModulePath are more directories to look for modules that ship with
	// the content in (-M, ANSIBLE_LIBRARY), before library/ beside the
	// playbook and in the roles.
	ModulePath []string
	// CollectionsPaths are where installed collections are looked for
	// (COLLECTIONS_PATHS: each holds an ansible_collections directory),
	// after the collections directory beside the playbook. They are
	// controller paths, read from the OS even when FS is set.
	CollectionsPaths []string
	// ScanSysPath looks for collections in the controller Python's
	// sys.path too, after CollectionsPaths (COLLECTIONS_SCAN_SYS_PATH:
	// where Debian's ansible package installs them). The Python is asked
	// only when a collection is not found in the other paths.
	ScanSysPath bool
	// PluginPaths are the configured directories of Python plugins by
	// kind ("action", "filter", "lookup", "test": DEFAULT_ACTION_PLUGIN_PATH
	// and the others), holding plugin files themselves, looked in after
	// the KIND_plugins directories beside the playbook and in its roles.
	PluginPaths map[string][]string
	// FS, when set, is where the playbook and everything it refers to are
	// read from (an agent bundle embedded with go:embed, say); paths are
	// then slash-separated and relative to the FS root. Nil means the OS.
	FS fs.FS
	// Sandbox, when set, bounds which controller files the playbook may
	// make Load (and a dynamic include, when it runs) read: every file
	// read and directory listed must be readable under it, the playbook
	// itself included, and lookups in a templated import_playbook path
	// obey it. Give the Runner the same policy. It does not apply to
	// files read from FS.
	Sandbox *sandbox.Policy
	// Decrypt opens Ansible Vault data (a vault.Keyring's Decrypt fits
	// it): values tagged !vault and vault-encrypted playbook, task and
	// vars files are decrypted with it. Nil refuses them. Give the Runner
	// the same, for vars_files, include_vars and copy/template sources.
	Decrypt func(vaulttext []byte) ([]byte, error)
	// DuplicateKeys is what a key given twice in one mapping of a
	// playbook, task or role file does (Ansible's
	// DUPLICATE_YAML_DICT_KEY): by default a warning in
	// Playbook.Notices, the last value kept.
	DuplicateKeys yaml11.DuplicatePolicy
}

// maxDepth bounds nested includes and role dependencies, so a loop of
// includes is reported instead of recursing forever.
const maxDepth = 64

// maxTasks bounds the tasks one Load decodes, so YAML aliases that repeat a
// task list exponentially fail fast instead of exhausting memory.
const maxTasks = 100000

// Load reads the playbook at path and everything it refers to: imported
// playbooks, roles, imported task files, and included task files whose
// path is literal. A file whose top level is a list of tasks (no hosts:)
// becomes one play for opts.Hosts. Values stay raw: nothing is templated.
//
// On failure the error is an ErrorList holding every problem found, each
// with file:line:col; the Playbook is then nil.
func Load(path string, opts Options) (*Playbook, error) {
	return load(path, opts, false)
}

// LoadTasks reads a file that is a bare list of tasks and makes it one play
// for the hosts pattern (an agent playbook). It fails if the file holds
// plays.
func LoadTasks(path, hosts string, opts Options) (*Playbook, error) {
	opts.Hosts = hosts
	return load(path, opts, true)
}

func load(path string, opts Options, tasksOnly bool) (*Playbook, error) {
	if v := reflect.ValueOf(opts.Modules); !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, errors.New("playbooks: Options.Modules is nil: give the registry the run will use")
	}
	src := source{fsys: opts.FS, sandbox: opts.Sandbox}
	abs, err := src.abs(path)
	if err != nil {
		return nil, err
	}
	l := &loader{
		opts:     opts,
		src:      src,
		mods:     newModuleSet(opts.Modules),
		pbDir:    filepath.Dir(abs),
		files:    map[string]*yaml.Node{},
		bad:      map[string]ErrorList{},
		names:    map[string]string{filepath.Clean(abs): path},
		givenDir: filepath.Dir(path),
		reported: map[*yaml.Node]bool{},
		active:   map[*yaml.Node]bool{},
		merged:   map[*yaml.Node][]entry{},
		decoders: map[string]*yaml11.Decoder{},
	}
	l.colls = newCollections(src, filepath.Join(l.pbDir, "collections"), opts)
	pb := &Playbook{Path: path, Dir: filepath.Dir(path)}
	pb.Plays = l.playbookFile(abs, nil, "", tasksOnly, nil)
	if len(l.errs.list) > 0 {
		return nil, dedupe(l.errs.list)
	}
	for abs, n := range l.files {
		if n != nil {
			pb.Files = append(pb.Files, l.show(abs))
		}
	}
	slices.Sort(pb.Files)
	pb.Warnings = dedupe(l.warns.list)
	pb.plugins = l.pluginFinder()
	pb.Notices = l.notices
	return pb, nil
}

// loader holds the state of one Load.
type loader struct {
	opts  Options
	src   source
	mods  *moduleSet
	colls *collection.Finder
	// collErrs are the errors resolving a module name in the collections
	// gave (removed, a redirect loop), reported where the name is.
	collErrs map[string]error
	errs     errs
	warns    errs // what only fails when it runs (Playbook.Warnings)
	// notices are the warnings about what loads (Playbook.Notices).
	notices []string
	// rolePaths are the directories of the roles loaded so far: their
	// library/ and action_plugins/ join the module search (contentDirs).
	rolePaths []string
	// playLevel is set while a play's own keywords are read: a bad
	// boolean there is a load error, as ansible-playbook --syntax-check
	// finds it; a task's fails only when the task runs.
	playLevel bool
	pbDir     string                     // the top playbook's directory (absolute)
	givenDir  string                     // the same, as the caller wrote it
	reported  map[*yaml.Node]bool        // nodes already reported: their templates are not checked again
	active    map[*yaml.Node]bool        // task lists and mappings being decoded (YAML alias loops)
	merged    map[*yaml.Node][]entry     // mappings' entries, merges resolved (entries)
	decoders  map[string]*yaml11.Decoder // per file: one alias budget for its values
	count     int                        // tasks decoded so far
	files     map[string]*yaml.Node      // parsed files by absolute path (nil: failed)
	bad       map[string]ErrorList       // the errors parsing a file gave, by absolute path
	names     map[string]string          // absolute path → path as shown in errors
	mu        sync.Mutex                 // held by Task.Resolve, which reuses the loader after Load
}

// show returns the name of a file as errors show it: its path relative to
// the top playbook's directory, joined to that directory as the caller
// wrote it, so errors read the way the command line was typed.
func (l *loader) show(abs string) string {
	if n, ok := l.names[abs]; ok {
		return n
	}
	name := abs
	if rel, err := filepath.Rel(l.pbDir, abs); err == nil && !strings.HasPrefix(rel, "..") {
		name = filepath.Join(l.givenDir, rel)
	}
	l.names[abs] = name
	return name
}

// read parses a YAML file once and returns its top node (nil for an empty
// file or on error, which is recorded at "from" when the file is missing).
func (l *loader) read(abs, fromFile string, from *yaml.Node, what string) (*yaml.Node, bool) {
	abs = filepath.Clean(abs)
	if n, ok := l.files[abs]; ok {
		// A reader who asks again (a dynamic include at run time) gets
		// the errors parsing it gave.
		l.errs.list = append(l.errs.list, l.bad[abs]...)
		return n, n != nil
	}
	data, err := l.src.readFile(abs)
	if err != nil {
		// Not remembered: each reader is told at its own line, and a
		// dynamic include asks again when it runs, as Ansible reads it
		// then (the sandbox is asked again, the file may exist by then).
		if from == nil {
			l.errs.list = append(l.errs.list, &Error{Pos: Pos{File: l.show(abs)}, Msg: "cannot read " + what + ": " + err.Error(), Err: err})
		} else {
			l.errs.wrap(fromFile, from, err, "cannot read %s %s: %v", what, l.show(abs), errNotExist(err))
		}
		return nil, false
	}
	l.files[abs] = nil
	before := len(l.errs.list)
	defer func() {
		if len(l.errs.list) > before {
			l.bad[abs] = slices.Clone(l.errs.list[before:])
		}
	}()
	if yaml11.IsVaulted(data) {
		dec := yaml11.NewDecoder()
		dec.Decrypt = l.opts.Decrypt
		if data, err = dec.Open(data, l.show(abs)); err != nil {
			l.errs.list = append(l.errs.list, &Error{Pos: Pos{File: l.show(abs)}, Msg: errors.Unwrap(err).Error(), Err: err})
			return nil, false
		}
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if err.Error() == "EOF" {
			l.files[abs] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
			return l.files[abs], true
		}
		l.errs.yamlErr(l.show(abs), data, err)
		return nil, false
	}
	notice := func(msg string) { l.notices = append(l.notices, msg) }
	if err := yaml11.CheckDuplicates(l.opts.DuplicateKeys, notice, data, &doc, abs); err != nil {
		var ye *yaml11.Error
		errors.As(err, &ye)
		l.errs.list = append(l.errs.list, &Error{Pos: Pos{File: l.show(abs), Line: ye.Line, Col: ye.Col}, Msg: ye.Msg, Err: err})
		return nil, false
	}
	top := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
	if len(doc.Content) > 0 {
		top = doc.Content[0]
	}
	var second yaml.Node
	if err := dec.Decode(&second); err == nil {
		l.errs.add(l.show(abs), &second, "expected a single document in the stream, but found another")
	}
	l.files[abs] = top
	return top, true
}

func errNotExist(err error) string {
	if errors.Is(err, fs.ErrNotExist) {
		return "(file not found)"
	}
	return err.Error()
}

// playbookFile decodes a playbook file into plays; stack guards
// import_playbook loops.
func (l *loader) playbookFile(abs string, from *yaml.Node, fromFile string, tasksOnly bool, stack []string) []*Play {
	file := l.show(abs)
	if slices.Contains(stack, abs) || len(stack) > maxDepth {
		l.errs.add(fromFile, from, "import_playbook loop: %s imports itself", file)
		return nil
	}
	top, ok := l.read(abs, fromFile, from, "playbook")
	if !ok {
		return nil
	}
	top = deref(top)
	if top.Tag == "!!null" {
		return nil
	}
	if top.Kind != yaml.SequenceNode {
		l.errs.add(file, top, "a playbook must be a list of plays (or of tasks), not %s", kindName(top))
		return nil
	}
	if tasksOnly && len(top.Content) > 0 && !l.isTaskList(file, top) {
		if m := deref(top.Content[0]); m.Kind == yaml.MappingNode && hasKey(m, "hosts") {
			l.errs.add(file, m, "this file holds plays, not a bare list of tasks")
			return nil
		}
	}
	if tasksOnly || l.isTaskList(file, top) {
		return []*Play{l.taskListPlay(abs, top)}
	}
	var plays []*Play
	for _, item := range top.Content {
		item = deref(item)
		if item.Kind != yaml.MappingNode {
			l.errs.add(file, item, "a play must be a mapping, not %s", kindName(item))
			continue
		}
		if imp := l.importPlaybook(abs, item, stack); imp != nil {
			plays = append(plays, imp...)
			continue
		}
		if p := l.play(abs, item); p != nil {
			plays = append(plays, p)
		}
	}
	return plays
}

// isTaskList reports whether a top-level list holds tasks rather than
// plays: its first mapping has neither hosts: nor import_playbook:, and
// has a task's key or module, or at least no key only a play has (so a
// task with a misspelt module still reads as a task).
func (l *loader) isTaskList(file string, top *yaml.Node) bool {
	for _, item := range top.Content {
		item = deref(item)
		if item.Kind != yaml.MappingNode {
			return false
		}
		hasTaskKey, hasPlayKey := false, false
		for i := 0; i+1 < len(item.Content); i += 2 {
			k := item.Content[i].Value
			switch {
			case k == "hosts" || fqcn.Short(k) == importPlaybook:
				return false
			case playKeys[k] && !taskKeys[k]:
				hasPlayKey = true
			case k == "block" || taskKeys[k] || len(k) > 5 && k[:5] == "with_":
				hasTaskKey = true
			default:
				if _, ok := l.mods.known(k); ok {
					hasTaskKey = true
				}
			}
		}
		return hasTaskKey || !hasPlayKey
	}
	return false
}

func hasKey(m *yaml.Node, key string) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return true
		}
	}
	return false
}

// taskListPlay turns a bare list of tasks into a play for Options.Hosts.
func (l *loader) taskListPlay(abs string, top *yaml.Node) *Play {
	hosts := l.opts.Hosts
	if hosts == "" {
		hosts = "all"
	}
	p := &Play{Pos: posOf(l.show(abs), top), Hosts: hosts}
	sc := &scope{play: p, pbdir: filepath.Dir(abs), file: abs, dir: filepath.Dir(abs), stack: []string{abs}}
	p.Tasks = l.taskList(sc, top, "tasks")
	return p
}

// dedupe drops repeated errors (a role used twice reports its errors once).
func dedupe(list ErrorList) ErrorList {
	seen := map[string]bool{}
	var out ErrorList
	for _, e := range list {
		if k := e.Error(); !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}
