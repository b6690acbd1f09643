package playbooks

import (
	"maps"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// roleArgSpecs finds a role's argument specs as ansible-core 2.14 does:
// meta/argument_specs(.yml|.yaml|.json), when one exists, is read (its
// argument_specs key; a file that is not a mapping has none) and
// meta/main.yml's argument_specs is not; otherwise meta/main.yml's. It
// returns the argument_specs node and the file it is in, nil when there
// is none.
func (l *loader) roleArgSpecs(r *Role, meta *yaml.Node, metaFile string) (*yaml.Node, string) {
	base := filepath.Join(r.Path, "meta", "argument_specs")
	found := false
	for _, ext := range []string{".yml", ".yaml", ".json"} {
		found = found || l.src.isFile(base+ext)
	}
	if !found {
		return meta, metaFile
	}
	// Once one exists, ansible-core loads it as a role file named by
	// its main: the bare name first.
	for _, ext := range []string{"", ".yml", ".yaml", ".json"} {
		c := base + ext
		if !l.src.isFile(c) {
			continue
		}
		top, ok := l.read(c, "", nil, "role file")
		if !ok || deref(top) == nil || deref(top).Kind != yaml.MappingNode {
			return nil, c
		}
		for _, e := range l.entries(l.show(c), top) {
			if e.key == "argument_specs" {
				return e.v, c
			}
		}
		return nil, c
	}
	return nil, ""
}

// argSpecTask is the task ansible-core 2.14 puts before a role's tasks
// when the role has an argument spec for its entry point (main, or the
// base name of tasks_from): validate_argument_spec of that entry point's
// options, with the role's parameters as provided_arguments, tagged
// always. Specs ansible-core fails on (not mappings, a short_description
// that is not a string) are refused. It returns nil when there is nothing
// to validate.
func (l *loader) argSpecTask(sc *scope, r *Role, specs *yaml.Node, specFile, tasksFrom string) *Task {
	file := l.show(specFile)
	specs = deref(specs)
	if l.falsy(file, specs) {
		return nil
	}
	if specs.Kind != yaml.MappingNode {
		l.errs.add(file, specs, "argument_specs of role %s must be a mapping, not %s", r.Name, kindName(specs))
		return nil
	}
	entry := "main"
	if tasksFrom != "" {
		entry = tasksFrom[strings.LastIndex(tasksFrom, "/")+1:]
	}
	var spec *yaml.Node
	for _, e := range l.entries(file, specs) {
		if e.key == entry {
			spec = deref(e.v)
		}
	}
	if l.falsy(file, spec) {
		return nil
	}
	if spec.Kind != yaml.MappingNode {
		l.errs.add(file, spec, "the argument spec %q of role %s must be a mapping, not %s", entry, r.Name, kindName(spec))
		return nil
	}
	name := "Validating arguments against arg spec '" + entry + "'"
	var options *yaml.Node
	for _, e := range l.entries(file, spec) {
		switch e.key {
		case "short_description":
			d, ok := l.value(file, e.v).(string)
			if !ok {
				l.errs.add(file, e.v, "short_description of the argument spec %q of role %s must be a string, not %s", entry, r.Name, kindName(deref(e.v)))
				return nil
			}
			name += " - " + d
		case "options":
			options = e.v
		}
	}
	at := spec
	str := func(s string) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Line: at.Line, Column: at.Column}
	}
	mapping := func(kv ...any) *yaml.Node {
		m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: at.Line, Column: at.Column}
		for i := 0; i+1 < len(kv); i += 2 {
			v, ok := kv[i+1].(*yaml.Node)
			if !ok {
				v = str(kv[i+1].(string))
			}
			m.Content = append(m.Content, str(kv[i].(string)), v)
		}
		return m
	}
	if options == nil {
		options = mapping()
	}
	node := mapping(
		"name", name,
		"ansible.builtin.validate_argument_spec", mapping(
			"argument_spec", options,
			"validate_args_context", mapping("type", "role", "name", r.Name, "argument_spec_name", entry, "path", r.Path)),
		"tags", &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: at.Line, Column: at.Column, Content: []*yaml.Node{str("always")}},
	)
	vs := *sc
	vs.file = specFile
	t := l.task(&vs, node)
	if t == nil {
		return nil
	}
	params := map[string]any{}
	maps.Copy(params, r.Params)
	t.Args["provided_arguments"] = params
	return t
}

// falsy tells whether n is false to Python, as ansible-core tests the
// argument specs it reads: absent, null, empty, false, 0 or "".
func (l *loader) falsy(file string, n *yaml.Node) bool {
	n = deref(n)
	if !isNode(n) {
		return true
	}
	if n.Kind != yaml.ScalarNode {
		return len(n.Content) == 0
	}
	switch v := l.value(file, n).(type) {
	case bool:
		return !v
	case string:
		return v == ""
	case int:
		return v == 0
	case float64:
		return v == 0
	}
	return false
}
