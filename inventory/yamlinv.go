package inventory

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strconv"

	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/yaml11"
	"go.yaml.in/yaml/v3"
)

type pair struct{ k, v *yaml.Node }

const msgPluginConfig = "Plugin configuration YAML file, not YAML inventory"

// pairs returns a mapping's entries in source order; a repeated key keeps
// its first position and its last value, like a Python dict.
func pairs(n *yaml.Node) []pair {
	var out []pair
	idx := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		key, err := yaml11.Key(k)
		if err != nil {
			key = fmt.Sprintf("\x00%d", i)
		}
		if j, ok := idx[key]; ok {
			out[j].v = v
			continue
		}
		idx[key] = len(out)
		out = append(out, pair{k, v})
	}
	return out
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// decodeYAML parses src into its document node (nil for an empty file):
// as JSON if it is JSON, else as YAML, as Ansible's loader does.
func decodeYAML(src []byte) (*yaml.Node, error) {
	if n, ok := jsonNode(src); ok {
		return n, nil
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(src))
	if err := dec.Decode(&doc); err != nil {
		if err.Error() == "EOF" {
			return nil, nil
		}
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	return deref(doc.Content[0]), nil
}

var reYAMLLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError turns a YAML syntax error into a *ParseError with its line.
func yamlError(file string, err error) *ParseError {
	if m := reYAMLLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &ParseError{File: file, Line: line, Msg: m[2]}
	}
	return &ParseError{File: file, Msg: err.Error()}
}

type yamlParser struct {
	inv  *Inventory
	file string
	// dec converts the document's variables, with one alias budget for
	// all of them.
	dec *yaml11.Decoder
}

func (p *yamlParser) warn(format string, args ...any) {
	p.inv.warnings = append(p.inv.warnings, p.file+": "+fmt.Sprintf(format, args...))
}

func (p *yamlParser) errAt(n *yaml.Node, format string, args ...any) error {
	return &ParseError{File: p.file, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)}
}

// valueErr is err, from converting n, at the position the conversion
// names (an alias deep inside n), else at n.
func (p *yamlParser) valueErr(n *yaml.Node, err error) error {
	var ye *yaml11.Error
	if errors.As(err, &ye) {
		return &ParseError{File: p.file, Line: ye.Line, Col: ye.Col, Msg: ye.Msg}
	}
	return p.errAt(n, "%v", err)
}

// ParseYAML adds the hosts and groups of a YAML inventory (Ansible's yaml
// plugin format: `all: {hosts:, children:, vars:}`) to inv. Variable values
// are read with YAML 1.1 rules, as Ansible reads them.
func (inv *Inventory) ParseYAML(name string, src []byte) error {
	defer inv.changed()
	root, err := decodeYAML(src)
	if err != nil {
		return yamlError(name, err)
	}
	if err := inv.checkDuplicates(name, src, root); err != nil {
		return err
	}
	p := &yamlParser{inv: inv, file: name, dec: inv.decoder()}
	inv.source = name
	err = p.parse(root)
	inv.source = ""
	inv.reconcile()
	return err
}

func (p *yamlParser) parse(root *yaml.Node) error {
	if root == nil || isNull(root) {
		return &ParseError{File: p.file, Msg: "Parsed empty YAML file"}
	}
	if root.Kind != yaml.MappingNode {
		return p.errAt(root, "YAML inventory has invalid structure, it should be a dictionary, got: %s", pyType(root))
	}
	for _, kv := range pairs(root) {
		if kv.k.Value == "plugin" && !isNull(kv.v) {
			return p.errAt(kv.k, msgPluginConfig)
		}
	}
	for _, kv := range pairs(root) {
		if _, err := p.group(kv.k, kv.v); err != nil {
			return err
		}
	}
	return nil
}

// pyType names a node's Python type as Ansible's messages do.
func pyType(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "<class 'ansible.parsing.yaml.objects.AnsibleMapping'>"
	case yaml.SequenceNode:
		return "<class 'ansible.parsing.yaml.objects.AnsibleSequence'>"
	}
	v, _ := yaml11.Value(n)
	switch v.(type) {
	case bool:
		return "<class 'bool'>"
	case int, *big.Int:
		return "<class 'int'>"
	case float64:
		return "<class 'float'>"
	case nil:
		return "<class 'NoneType'>"
	}
	return "<class 'ansible.parsing.yaml.objects.AnsibleUnicode'>"
}

func (p *yamlParser) stringKey(k *yaml.Node, what string) (string, error) {
	v, err := yaml11.Value(k)
	if err != nil {
		return "", p.errAt(k, "%v", err)
	}
	switch s := v.(type) {
	case string:
		if s == "" {
			return "", p.errAt(k, "Invalid empty %s name", what)
		}
		return s, nil
	case yaml11.Unsafe:
		return string(s), nil
	}
	if what == "host" {
		return "", p.errAt(k, "Host pattern %s must be a string. Enclose integers/floats in quotation marks.", k.Value)
	}
	return "", p.errAt(k, "Invalid group name supplied, expected a string but got %s for %s", pyType(k), k.Value)
}

// group parses one group entry and returns the group's name. An entry that
// is not a mapping is skipped, as in Ansible.
func (p *yamlParser) group(k, data *yaml.Node) (string, error) {
	name, err := p.stringKey(k, "group")
	if err != nil {
		return "", err
	}
	if !isNull(data) && data.Kind != yaml.MappingNode {
		// A parent naming it then fails unless a host has that name.
		p.warn("Skipping '%s' as this is not a valid group definition", name)
		return name, nil
	}
	g := p.inv.addGroup(name)
	if isNull(data) {
		return name, nil
	}
	sections := pairs(data)
	for _, s := range sections {
		switch s.k.Value {
		case "vars", "children", "hosts":
			if !isNull(s.v) && s.v.Kind != yaml.MappingNode && s.v.Kind != yaml.ScalarNode {
				return "", p.errAt(s.v, "Invalid \"%s\" entry for \"%s\" group, requires a dictionary, found \"%s\" instead.", s.k.Value, name, pyType(s.v))
			}
		}
	}
	for _, s := range sections {
		switch {
		case isNull(s.v):
			continue
		case s.k.Value != "vars" && s.k.Value != "children" && s.k.Value != "hosts":
			p.warn("Skipping unexpected key (%s) in group (%s), only \"vars\", \"children\" and \"hosts\" are valid", s.k.Value, name)
			continue
		}
		entries, err := p.entries(s, name)
		if err != nil {
			return "", err
		}
		switch s.k.Value {
		case "vars":
			for _, e := range entries {
				key, err := yaml11.Key(e.k)
				if err != nil {
					return "", p.valueErr(e.k, err)
				}
				v, err := p.dec.Value(e.v)
				if err != nil {
					return "", p.valueErr(e.v, err)
				}
				if err := p.inv.setGroupVar(g, key, v); err != nil {
					return "", p.errAt(e.v, "%v", err)
				}
			}
		case "children":
			for _, e := range entries {
				child, err := p.group(e.k, e.v)
				if err != nil {
					return "", err
				}
				if err := p.inv.addChild(name, child); err != nil {
					return "", p.errAt(e.k, "%v", err)
				}
			}
		case "hosts":
			for _, e := range entries {
				if err := p.hosts(g, e); err != nil {
					return "", err
				}
			}
		}
	}
	return name, nil
}

// entries returns a section's entries; a bare string "x" means {x: null}.
func (p *yamlParser) entries(s pair, group string) ([]pair, error) {
	switch s.v.Kind {
	case yaml.MappingNode:
		return pairs(s.v), nil
	case yaml.ScalarNode:
		if v, _ := yaml11.Value(s.v); v != nil {
			if _, ok := v.(string); ok {
				return []pair{{s.v, nil}}, nil
			}
		}
		switch s.k.Value {
		case "vars", "children", "hosts":
			return nil, p.errAt(s.v, "Invalid \"%s\" entry for \"%s\" group, requires a dictionary, found \"%s\" instead.", s.k.Value, group, pyType(s.v))
		}
	}
	return nil, nil
}

func (p *yamlParser) hosts(g *Group, e pair) error {
	pattern, err := p.stringKey(e.k, "host")
	if err != nil {
		return err
	}
	names, port, err := expandHostPattern(pattern, false)
	if err != nil {
		return p.errAt(e.k, "%v", err)
	}
	var vars []pair
	if !isNull(e.v) {
		if e.v.Kind != yaml.MappingNode {
			v, _ := yaml11.Value(e.v)
			return p.errAt(e.v, "Invalid data from file, expected dictionary and got:\n\n%v", pyfmt.Str(v))
		}
		vars = pairs(e.v)
	}
	for _, n := range names {
		h := p.inv.addHost(n, port)
		g.addHost(h)
		for _, kv := range vars {
			key, err := yaml11.Key(kv.k)
			if err != nil {
				return p.valueErr(kv.k, err)
			}
			v, err := p.dec.Value(kv.v)
			if err != nil {
				return p.valueErr(kv.v, err)
			}
			p.inv.setHostVar(h, key, v)
		}
	}
	return nil
}
