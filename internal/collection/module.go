package collection

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// runtimeMeta is what tender reads of a collection's meta/runtime.yml.
type runtimeMeta struct {
	PluginRouting map[string]map[string]route `yaml:"plugin_routing"`
	// ActionGroups are the groups module_defaults names (group/NAME):
	// module names, and a {metadata: {extend_group: …}} entry.
	ActionGroups map[string][]any `yaml:"action_groups"`
}

// route is one plugin_routing entry. Deprecations are not read: tender
// prints no deprecation warnings (DEPRECATION_WARNINGS off).
type route struct {
	Redirect  string `yaml:"redirect"`
	Tombstone *struct {
		WarningText string `yaml:"warning_text"`
	} `yaml:"tombstone"`
	ActionPlugin string `yaml:"action_plugin"`
}

// maxMetaSize bounds a runtime.yml.
const maxMetaSize = 8 << 20

// parseMeta reads a runtime.yml's text.
func parseMeta(file string, b []byte) (*runtimeMeta, error) {
	if len(b) > maxMetaSize {
		return nil, fmt.Errorf("%s: more than %d bytes", file, maxMetaSize)
	}
	m := &runtimeMeta{}
	if err := yaml.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return m, nil
}

// meta returns the runtime metadata of the collection in dir (cached);
// a collection without meta/runtime.yml has none.
func (f *Finder) meta(coll, dir string) (*runtimeMeta, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if m, ok := f.metas[coll]; ok {
		return m, nil
	}
	file := filepath.Join(dir, "meta", "runtime.yml")
	m := &runtimeMeta{}
	if f.isFile(file) {
		b, err := f.fs.ReadFile(file)
		if err != nil {
			return nil, err
		}
		if m, err = parseMeta(file, b); err != nil {
			return nil, err
		}
	}
	f.metas[coll] = m
	return m, nil
}

func (m *runtimeMeta) route(kind, key string) route {
	if m == nil {
		return route{}
	}
	return m.PluginRouting[kind][key]
}

// Module is a module resolved in the collections.
type Module struct {
	// Chain lists the names the module was asked for, then each redirect
	// followed; the last is its name. A module tender runs natively may
	// be any of them.
	Chain []string
	// File is the module's file; "" when the last name of Chain names a
	// collection that is not installed, or a module it does not hold.
	File string
	// ActionPlugin is the file of the action plugin that runs in the
	// module's place (the routing's action_plugin, or one of the same
	// name in the collection's plugins/action), "" for none.
	ActionPlugin string
}

// Name is the module's fully qualified name: the last of its chain.
func (m Module) Name() string { return m.Chain[len(m.Chain)-1] }

// Module resolves a module name: a fully qualified one in its collection,
// following the collection's routing; a name of ansible.builtin or
// ansible.legacy through ansible.builtin's routing only (ansible-core's
// own modules are tender's to run). It fails when the routing says the
// module was removed, or redirects in a loop or to a name that is not
// fully qualified.
func (f *Finder) Module(name string) (Module, error) {
	m := Module{Chain: []string{name}}
	var first Ref
	for hop := 0; ; hop++ {
		if hop > redirectLimit {
			return m, loopError(m.Chain)
		}
		var rt route
		ref, isRef := ParseRef(name, false)
		if !isRef {
			return m, nil
		}
		var dir string
		if Synthetic(ref.Collection) {
			rt = builtinRouting().route("modules", ref.routingKey())
		} else {
			var ok bool
			if dir, ok = f.Collection(ref.Collection); !ok {
				return m, nil
			}
			meta, err := f.meta(ref.Collection, dir)
			if err != nil {
				return m, err
			}
			rt = meta.route("modules", ref.routingKey())
		}
		if hop == 0 {
			first = ref
		}
		if rt.Tombstone != nil {
			return m, &RemovedError{Name: name, Text: rt.Tombstone.WarningText}
		}
		if rt.Redirect != "" {
			if _, ok := ParseRef(rt.Redirect, false); !ok {
				return m, fmt.Errorf("Collection %s contains invalid redirect for %s: %s. Redirects must use fully qualified collection names.", ref.Collection, name, rt.Redirect)
			}
			if slices.Contains(m.Chain, rt.Redirect) {
				return m, loopError(append(m.Chain, rt.Redirect))
			}
			name = rt.Redirect
			m.Chain = append(m.Chain, name)
			continue
		}
		if dir == "" {
			return m, nil
		}
		m.File = f.pluginFile(dir, "modules", ref)
		if m.File == "" {
			return m, nil
		}
		m.ActionPlugin = f.actionPlugin(rt.ActionPlugin, ref, dir)
		if m.ActionPlugin == "" && first.Collection != "" && first != ref {
			if d, ok := f.Collection(first.Collection); ok {
				m.ActionPlugin = f.pluginFile(d, "action", first)
			}
		}
		return m, nil
	}
}

// actionPlugin finds the action plugin of a module: the routing's
// action_plugin (a fully qualified name), else one of the module's name.
func (f *Finder) actionPlugin(named string, ref Ref, dir string) string {
	if named != "" {
		if r, ok := ParseRef(named, false); ok {
			if d, ok := f.Collection(r.Collection); ok {
				return f.pluginFile(d, "action", r)
			}
		}
		return ""
	}
	return f.pluginFile(dir, "action", ref)
}

// defaultIgnoreExts is MODULE_IGNORE_EXTS's default.
var defaultIgnoreExts = []string{".pyc", ".pyo", ".swp", ".bak", "~", ".rpm", ".md", ".txt", ".rst", ".yaml", ".yml", ".ini"}

// pluginFile finds a plugin's file in the collection in dir, as Ansible
// does: the name exactly, else the first, sorted, of name.* that is not
// an ignored ending (action plugins are Python: name.py only).
func (f *Finder) pluginFile(dir, kind string, ref Ref) string {
	pkg := filepath.Join(dir, "plugins", kind)
	if ref.Subdirs != "" {
		pkg = filepath.Join(append([]string{pkg}, strings.Split(ref.Subdirs, ".")...)...)
	}
	if kind != "modules" {
		if p := filepath.Join(pkg, ref.Resource+".py"); f.isFile(p) {
			return p
		}
		return ""
	}
	if p := filepath.Join(pkg, ref.Resource); f.isFile(p) {
		return p
	}
	ents, err := f.fs.ReadDir(pkg)
	if err != nil {
		return ""
	}
	ignore := f.cfg.IgnoreExts
	if ignore == nil {
		ignore = defaultIgnoreExts
	}
	var found []string
	for _, e := range ents {
		n := e.Name()
		if !strings.HasPrefix(n, ref.Resource+".") || e.IsDir() {
			continue
		}
		if slices.ContainsFunc(ignore, func(x string) bool { return strings.HasSuffix(n, x) }) {
			continue
		}
		found = append(found, filepath.Join(pkg, n))
	}
	slices.Sort(found)
	if len(found) == 0 {
		return ""
	}
	return found[0]
}
