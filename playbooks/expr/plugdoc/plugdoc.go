// Package plugdoc holds the documentation of the filter, test and lookup
// plugins tender runs: tender's own words, one YAML file per plugin
// (KIND/NAME.yml beside this file), and the facts of each option (type,
// default, choices, required) as ansible-core 2.14 documents them for
// its ansible.builtin plugins (facts.json, recorded by gen.py), so the
// words cannot disagree with what the options are. The Doc type is also
// the shape of a module's documentation (tasks/builtin/moddoc).
package plugdoc

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/playbooks/expr"
)

//go:embed filter test lookup facts.json jinja
var files embed.FS

// Kinds are the plugin kinds documented here.
var Kinds = []string{"filter", "test", "lookup"}

// Doc is the documentation of a module or plugin, in tender's words.
type Doc struct {
	// Short is the one-line summary (ansible-doc's short_description).
	Short string `yaml:"short"`
	// Description is what it does, one paragraph per entry.
	Description Lines `yaml:"description"`
	// Options describes each option (a module's parameter, a plugin's
	// input, positional argument or keyword) by its name.
	Options map[string]Lines `yaml:"options"`
	// Requirements are what the host (or controller) needs.
	Requirements Lines `yaml:"requirements"`
	// Notes are further remarks, one per entry.
	Notes Lines `yaml:"notes"`
	// SeeAlso names related modules or plugins by fully qualified name.
	SeeAlso []string `yaml:"seealso"`
	// CheckMode and DiffMode say how far a module supports --check and
	// --diff: full, partial or none (ansible-doc's attributes).
	CheckMode string `yaml:"check_mode"`
	DiffMode  string `yaml:"diff_mode"`
	// Examples are examples, as YAML text.
	Examples string `yaml:"examples"`
	// Returns describes the values returned, by key.
	Returns map[string]Return `yaml:"returns"`
}

// Return is one returned value's documentation.
type Return struct {
	Description Lines  `yaml:"description"`
	Returned    string `yaml:"returned"`
	Type        string `yaml:"type"`
	Elements    string `yaml:"elements"`
	// Sample is an example value, any YAML value.
	Sample any `yaml:"sample"`
	// Contains documents the keys of a dict (or of a list's dicts).
	Contains map[string]Return `yaml:"contains"`
}

// Lines is text given as one string or as a list of paragraphs.
type Lines []string

// UnmarshalYAML reads a string or a list of strings.
func (l *Lines) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*l = Lines{n.Value}
		return nil
	}
	var list []string
	if err := n.Decode(&list); err != nil {
		return err
	}
	*l = list
	return nil
}

// Decode reads one documentation file strictly (an unknown key or a
// wrong type is an error naming file), with a short description and the
// check and diff levels ansible-doc knows.
func Decode(b []byte, file string) (*Doc, error) {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var d Doc
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	if d.Short == "" {
		return nil, fmt.Errorf("%s: no short description", file)
	}
	for _, m := range []string{d.CheckMode, d.DiffMode} {
		switch m {
		case "", "full", "partial", "none":
		default:
			return nil, fmt.Errorf("%s: check_mode and diff_mode are full, partial or none, not %q", file, m)
		}
	}
	return &d, nil
}

// Option is the facts of one plugin option, as ansible-core documents it.
type Option struct {
	Type     string   `json:"type"`
	Default  any      `json:"default"`
	Choices  any      `json:"choices"`
	Aliases  []string `json:"aliases"`
	Elements string   `json:"elements"`
	Required bool     `json:"required"`
	// SetVia are the lines of ansible-doc's set_via block: the
	// environment variables and ansible.cfg keys that set a callback's
	// option.
	SetVia []string `json:"-" yaml:"-"`
}

// Facts are one plugin's recorded facts: its options and the names of
// the values it returns.
type Facts struct {
	Options    map[string]Option `json:"options"`
	Returns    []string          `json:"returns"`
	Positional any               `json:"positional"`
}

var facts map[string]map[string]Facts

// FactsOf returns the recorded facts of plugin name of kind, and whether
// ansible-core documents it.
func FactsOf(kind, name string) (Facts, bool) {
	if facts == nil {
		b, _ := files.ReadFile("facts.json")
		if err := json.Unmarshal(b, &facts); err != nil {
			panic("playbooks/expr/plugdoc/facts.json: " + err.Error())
		}
	}
	f, ok := facts[kind][name]
	return f, ok
}

// Recorded lists the plugins of kind ansible-core documents, sorted.
func Recorded(kind string) []string {
	FactsOf(kind, "")
	out := make([]string, 0, len(facts[kind]))
	for n := range facts[kind] {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Names lists the plugins of kind that have a documentation file, sorted.
func Names(kind string) []string { return YAMLNames(files, kind) }

// Implemented lists the plugins of kind tender runs (filter, test or
// lookup), sorted.
func Implemented(kind string) []string {
	switch kind {
	case "filter":
		return expr.Filters()
	case "test":
		return expr.Tests()
	}
	return expr.Lookups()
}

// YAMLNames lists the names of the .yml files in dir of fsys, sorted:
// the documented modules or plugins.
func YAMLNames(fsys fs.FS, dir string) []string {
	entries, _ := fs.ReadDir(fsys, dir)
	var out []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".yml"); ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// For reads the documentation of plugin name of kind (one of Jinja2's
// builtins from jinja/KIND.yml).
func For(kind, name string) (*Doc, error) {
	b, err := files.ReadFile(kind + "/" + name + ".yml")
	if err != nil {
		if d, _, ok := Jinja(kind, name); ok {
			return d, nil
		}
		return nil, fmt.Errorf("no documentation for the %s plugin %q", kind, name)
	}
	return Decode(b, "playbooks/expr/plugdoc/"+kind+"/"+name+".yml")
}
