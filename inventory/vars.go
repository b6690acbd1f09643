package inventory

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/yaml11"
)

// varsExts are Ansible's YAML_FILENAME_EXTENSIONS, tried after the bare name.
var varsExts = []string{"", ".yml", ".yaml", ".json"}

// findVarsFiles lists the files that hold variables for name in dir (a
// host_vars/ or group_vars/ directory), as Ansible's find_vars_files: the
// first of NAME, NAME.yml, NAME.yaml, NAME.json that exists; if it is a
// directory, every file in it (recursively, sorted, hidden files and
// backups skipped) with no extension or one of those.
func findVarsFiles(dir, name string) ([]string, error) {
	for _, ext := range varsExts {
		p := filepath.Join(dir, name+ext)
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		if st.IsDir() {
			return dirVarsFiles(p)
		}
		return []string{p}, nil
	}
	return nil, nil
}

func dirVarsFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, ".") || strings.HasSuffix(n, "~") {
			continue
		}
		p := filepath.Join(dir, n)
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		ext := filepath.Ext(n)
		switch {
		case st.IsDir() && ext == "":
			sub, err := dirVarsFiles(p)
			if err != nil {
				return nil, err
			}
			out = append(out, sub...)
		case st.Mode().IsRegular() && (ext == "" || ext == ".yml" || ext == ".yaml" || ext == ".json"):
			out = append(out, p)
		}
	}
	return out, nil
}

// loadVarsFile reads one host_vars/group_vars file: YAML (JSON included)
// read with YAML 1.1 rules. An empty file holds no variables.
func (inv *Inventory) loadVarsFile(path string) (map[string]any, error) {
	src, err := yaml11.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := inv.decoder()
	if src, err = dec.Open(src, path); err != nil {
		return nil, err
	}
	root, err := decodeYAML(src)
	if err != nil {
		return nil, yamlError(path, err)
	}
	if err := inv.checkDuplicates(path, src, root); err != nil {
		return nil, err
	}
	v, err := dec.Value(root)
	if err != nil {
		if ye, ok := err.(*yaml11.Error); ok {
			return nil, &ParseError{File: path, Line: ye.Line, Col: ye.Col, Msg: ye.Msg}
		}
		return nil, &ParseError{File: path, Msg: err.Error()}
	}
	switch m := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return m, nil
	case []any:
		if len(m) == 0 {
			return nil, nil
		}
	case string:
		if m == "" {
			return nil, nil
		}
	}
	return nil, &ParseError{File: path, Line: root.Line, Col: root.Column,
		Msg: fmt.Sprintf("failed to combine variables, expected dicts but got a '%s' and a 'dict'", pyfmt.TypeName(v))}
}

// fileVars returns the merged variables of kind ("host_vars" or
// "group_vars") for name found beside the sources, cached.
func (inv *Inventory) fileVars(dir, kind, name string) (map[string]any, error) {
	if strings.HasPrefix(name, string(os.PathSeparator)) {
		return nil, nil
	}
	key := dir + "\x00" + kind + "\x00" + name
	inv.mu.Lock()
	defer inv.mu.Unlock()
	if m, ok := inv.files[key]; ok {
		return m, nil
	}
	base := filepath.Join(dir, kind)
	if real, err := filepath.EvalSymlinks(base); err == nil {
		base = real
	}
	var merged map[string]any
	if st, err := os.Stat(base); err == nil && st.IsDir() {
		paths, err := findVarsFiles(base, name)
		if err != nil {
			return nil, err
		}
		for _, p := range paths {
			m, err := inv.loadVarsFile(p)
			if err != nil {
				return nil, err
			}
			merged = inv.combineVars(merged, m)
		}
	}
	inv.files[key] = merged
	return merged, nil
}

// combineVars is Ansible's combine_vars: a's entries overridden by b's,
// or, with hash_behaviour=merge (Options.HashMerge), merged with them
// recursively.
func (inv *Inventory) combineVars(a, b map[string]any) map[string]any {
	if inv.hashMerge && len(a) > 0 {
		return pydict.MergeHash(a, b)
	}
	return combine(a, b)
}

// combine returns a's entries overridden by b's (Ansible's combine_vars
// with the default hash_behaviour=replace).
func combine(a, b map[string]any) map[string]any {
	if len(b) == 0 {
		return a
	}
	out := pydict.NewBuilder(len(a) + len(b))
	for _, k := range pydict.Keys(a) {
		out.Set(k, a[k])
	}
	for _, k := range pydict.Keys(b) {
		out.Set(k, b[k])
	}
	return out.Map()
}

// SetPlaybookDir makes dir's group_vars/ and host_vars/ count as Ansible's
// playbook-adjacent variables (ansible-playbook uses the playbook's
// directory, ansible-inventory its --playbook-dir): each file there
// overrides the inventory-adjacent file of the same kind. Their files are
// read now for every host and group, and errors reported.
func (inv *Inventory) SetPlaybookDir(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	// Runs of one playbook share an inventory (agent deploy runs one per
	// host, at once): the files of a directory already set were read.
	inv.mu.Lock()
	same := len(inv.playDirs) == 1 && inv.playDirs[0] == abs
	if !same {
		inv.playDirs = []string{abs}
	}
	inv.mu.Unlock()
	if same {
		return nil
	}
	return inv.preload()
}

// playbookDirs is what SetPlaybookDir set, read under the lock it is set
// under.
func (inv *Inventory) playbookDirs() []string {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	return inv.playDirs
}

// preload reads the vars files of every host and group, so that errors
// surface early and later readers only hit the cache.
func (inv *Inventory) preload() error {
	for _, h := range inv.hostOrder {
		if err := inv.loadHostFiles(h); err != nil {
			return err
		}
	}
	for _, g := range inv.groupOrder {
		if _, err := inv.GroupVars(g.Name); err != nil {
			return err
		}
	}
	return nil
}

func (inv *Inventory) loadHostFiles(h *Host) error {
	for _, d := range append(append([]string(nil), inv.varsDirs...), inv.playbookDirs()...) {
		if _, err := inv.fileVars(d, "host_vars", h.Name); err != nil {
			return err
		}
		for _, g := range h.Groups() {
			if _, err := inv.fileVars(d, "group_vars", g.Name); err != nil {
				return err
			}
		}
	}
	return nil
}

// HostVars returns the host's variables merged as Ansible's VariableManager
// merges inventory variables: the "all" group's inventory vars, then the
// host's other groups' inventory vars (by depth, ansible_group_priority,
// name), then group_vars/all files, then group_vars/GROUP files (per
// source, groups in the same order), then the host's inventory vars, then
// host_vars/HOST files. Magic variables (inventory_hostname, group_names,
// ...) are not included. The result is a fresh deep copy.
func (inv *Inventory) HostVars(name string) (map[string]any, error) {
	h := inv.hosts[name]
	if h == nil {
		if h = inv.implicitHost(name); h == nil {
			return nil, fmt.Errorf("no host %q in the inventory", name)
		}
	}
	return inv.hostVars(h)
}

func (inv *Inventory) hostVars(h *Host) (map[string]any, error) {
	all := inv.groups["all"]
	var gs []*Group
	for _, g := range h.Groups() {
		if g != all {
			gs = append(gs, g)
		}
	}
	sortGroups(gs)
	res := inv.combineVars(nil, all.Vars)
	for _, g := range gs {
		res = inv.combineVars(res, g.Vars)
	}
	// Ansible's VARIABLE_PRECEDENCE: all_plugins_inventory,
	// all_plugins_play, groups_plugins_inventory, groups_plugins_play.
	steps := []struct {
		dirs []string
		kind string
		gs   []*Group
	}{
		{inv.varsDirs, "group_vars", []*Group{all}},
		{inv.playbookDirs(), "group_vars", []*Group{all}},
		{inv.varsDirs, "group_vars", gs},
		{inv.playbookDirs(), "group_vars", gs},
	}
	for _, s := range steps {
		for _, d := range s.dirs {
			for _, g := range s.gs {
				m, err := inv.fileVars(d, s.kind, g.Name)
				if err != nil {
					return nil, err
				}
				res = inv.combineVars(res, m)
			}
		}
	}
	res = inv.combineVars(res, h.Vars)
	for _, d := range append(append([]string(nil), inv.varsDirs...), inv.playbookDirs()...) {
		m, err := inv.fileVars(d, "host_vars", h.Name)
		if err != nil {
			return nil, err
		}
		res = inv.combineVars(res, m)
	}
	return copyVars(res), nil
}

// GroupVars returns the group's variables as ansible-inventory --graph
// --vars shows them: its inventory vars, overridden by its group_vars/
// files, plus ansible_group_priority when it is not 1.
func (inv *Inventory) GroupVars(name string) (map[string]any, error) {
	g := inv.groups[name]
	if g == nil {
		return nil, fmt.Errorf("no group %q in the inventory", name)
	}
	res := inv.combineVars(nil, g.Vars)
	for _, d := range append(append([]string(nil), inv.varsDirs...), inv.playbookDirs()...) {
		m, err := inv.fileVars(d, "group_vars", g.Name)
		if err != nil {
			return nil, err
		}
		res = inv.combineVars(res, m)
	}
	if g.priority != 1 {
		res = inv.combineVars(res, map[string]any{"ansible_group_priority": g.priority})
	}
	return copyVars(res), nil
}

// copyVars deep-copies a variable map, never returning nil.
func copyVars(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return yaml11.Copy(m).(map[string]any)
}
