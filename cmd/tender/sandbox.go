package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/internal/fqcn"
	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/sandbox"
)

// sandboxFlag is --sandbox, for play and the agent commands.
func sandboxFlag() cli.Flag {
	return &cli.StringFlag{Name: "sandbox", Usage: "a YAML file bounding what the playbooks may do on this machine: " +
		"lookups:, read:, write:, env:, local: (docs/SANDBOX.md); without it everything is allowed, as in Ansible"}
}

// sandboxPolicy reads the policy --sandbox names, nil without the flag.
func sandboxPolicy(c *cli.Context) (*sandbox.Policy, error) {
	path := c.String("sandbox")
	if path == "" {
		return nil, nil
	}
	p, err := loadSandbox(path)
	if err != nil {
		return nil, &exitError{code: 5, err: err}
	}
	return p, nil
}

// loadSandbox reads a sandbox file strictly: a mapping of lookups: (a
// list of lookup names), read: and write: (lists of directories, a
// relative one taken from the file's directory), env: (a list of
// environment variables' names) and local: (a boolean).
// Every key is optional and what is not stated is not allowed. Unknown
// keys, wrong types, unknown lookups and aliases are errors at their
// file:line:col.
func loadSandbox(path string) (*sandbox.Policy, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--sandbox: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, playbooks.YAMLError(path, data, err)
	}
	sl := &sandboxLoader{file: path, dir: filepath.Dir(abs), p: &sandbox.Policy{Name: path}}
	switch {
	case len(doc.Content) == 0:
		sl.add(&yaml.Node{Line: 1, Column: 1}, "the sandbox file is empty: write {} to allow nothing, or state lookups:, read:, write:, env: and local:")
	case doc.Content[0].Kind != yaml.MappingNode:
		sl.add(doc.Content[0], "a sandbox file is a mapping of lookups:, read:, write:, env: and local:")
	default:
		sl.mapping(doc.Content[0])
	}
	if len(sl.errs) > 0 {
		return nil, sl.errs
	}
	if err := sl.p.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return sl.p, nil
}

type sandboxLoader struct {
	file, dir string
	p         *sandbox.Policy
	errs      playbooks.ErrorList
	cmdAt     *yaml.Node // the pipe or lines lookup, which needs local
}

func (sl *sandboxLoader) add(n *yaml.Node, format string, args ...any) {
	sl.errs = append(sl.errs, &playbooks.Error{Pos: playbooks.Pos{File: sl.file, Line: n.Line, Col: n.Column}, Msg: fmt.Sprintf(format, args...)})
}

func (sl *sandboxLoader) mapping(m *yaml.Node) {
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if seen[k.Value] {
			sl.add(k, "%q is given twice", k.Value)
			continue
		}
		seen[k.Value] = true
		switch k.Value {
		case "lookups":
			sl.p.Lookups = sl.strings(k, v, sl.lookup)
		case "read":
			sl.p.Read = sl.strings(k, v, sl.dirPath)
		case "write":
			sl.p.Write = sl.strings(k, v, sl.dirPath)
		case "env":
			sl.p.Env = sl.strings(k, v, sl.envName)
		case "local":
			b, ok := sl.scalar(v).(bool)
			if !ok {
				sl.add(v, "local: want true or false, got %s", describe(v))
			}
			sl.p.Local = b
		default:
			sl.add(k, "%q is not a sandbox key (lookups, read, write, env, local)", k.Value)
		}
	}
	if sl.cmdAt != nil && !sl.p.Local {
		sl.add(sl.cmdAt, "the %s lookup runs commands on this machine: allowing it needs local: true", sl.cmdAt.Value)
	}
}

// scalar is v's YAML 1.1 value, nil when v is not a plain scalar.
func (sl *sandboxLoader) scalar(v *yaml.Node) any {
	if v.Kind != yaml.ScalarNode {
		return nil
	}
	x, err := yaml11.Value(v)
	if err != nil {
		return nil
	}
	return x
}

// strings reads a list of strings, each checked (and mapped) by each.
func (sl *sandboxLoader) strings(k, v *yaml.Node, each func(n *yaml.Node) (string, bool)) []string {
	out := []string{}
	if v.Kind != yaml.SequenceNode {
		sl.add(v, "%s: want a list, got %s", k.Value, describe(v))
		return out
	}
	for _, e := range v.Content {
		if _, ok := sl.scalar(e).(string); !ok {
			sl.add(e, "%s: want a string, got %s", k.Value, describe(e))
			continue
		}
		if s, ok := each(e); ok {
			out = append(out, s)
		}
	}
	return out
}

func (sl *sandboxLoader) lookup(n *yaml.Node) (string, bool) {
	known := expr.Lookups()
	name := fqcn.Short(n.Value)
	if !slices.Contains(known, name) {
		sl.add(n, "lookups: %q is not a lookup plugin tender implements (%s)", n.Value, strings.Join(known, ", "))
		return "", false
	}
	if name == "pipe" || name == "lines" {
		sl.cmdAt = n
	}
	return name, true
}

func (sl *sandboxLoader) envName(n *yaml.Node) (string, bool) {
	if err := sandbox.CheckEnvName(n.Value); err != nil {
		sl.add(n, "env: %v", err)
		return "", false
	}
	return n.Value, true
}

func (sl *sandboxLoader) dirPath(n *yaml.Node) (string, bool) {
	p := n.Value
	switch {
	case p == "":
		sl.add(n, "an empty path")
		return "", false
	case strings.HasPrefix(p, "~"):
		sl.add(n, "%q: ~ is not expanded here; write the absolute path", p)
		return "", false
	case !filepath.IsAbs(p):
		p = filepath.Join(sl.dir, p)
	}
	return filepath.Clean(p), true
}

// describe names what a node holds, for an error.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.AliasNode:
		return "an alias (not supported in a sandbox file)"
	}
	if n.Tag == "!!null" {
		return "nothing"
	}
	return fmt.Sprintf("%q", n.Value)
}
