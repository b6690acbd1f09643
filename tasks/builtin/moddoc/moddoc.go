// Package moddoc holds the documentation of the modules tender ships:
// what each does, what each parameter means, notes, examples and the
// values each returns, written for tender in one YAML file per module
// (NAME.yml beside this file). The parameters' facts (type, default,
// choices, aliases, required) are not repeated there: they are the
// module's tasks.Spec, so the documentation cannot drift from what the
// module accepts. tender doc renders a Doc with its Spec as ansible-doc
// renders a module's documentation: text, a task snippet, or JSON.
package moddoc

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

//go:embed *.yml
var files embed.FS

// Doc is one module's documentation.
type Doc struct {
	// Short is the one-line summary (ansible-doc's short_description).
	Short string `yaml:"short"`
	// Description is what the module does, one paragraph per entry.
	Description Lines `yaml:"description"`
	// Options describes each parameter by its canonical name.
	Options map[string]Lines `yaml:"options"`
	// Requirements are what the host needs (programs, files).
	Requirements Lines `yaml:"requirements"`
	// Notes are further remarks, one per entry.
	Notes Lines `yaml:"notes"`
	// SeeAlso names related modules by their fully qualified names.
	SeeAlso []string `yaml:"seealso"`
	// CheckMode and DiffMode say how far the module supports --check and
	// --diff: full, partial or none (ansible-doc's attributes).
	CheckMode string `yaml:"check_mode"`
	DiffMode  string `yaml:"diff_mode"`
	// Examples are example tasks, as YAML text.
	Examples string `yaml:"examples"`
	// Returns describes the values the module returns, by key.
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

// Names lists the modules that have a documentation file, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(files, ".")
	var out []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".yml"); ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// For reads the documentation of module name (its short name). A file
// that is not valid (an unknown key, a wrong type) is an error naming it,
// so a mistake in one fails the tests rather than hiding a section.
func For(name string) (*Doc, error) {
	b, err := files.ReadFile(name + ".yml")
	if err != nil {
		return nil, fmt.Errorf("no documentation for module %q", name)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var d Doc
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("tasks/builtin/moddoc/%s.yml: %v", name, err)
	}
	if d.Short == "" {
		return nil, fmt.Errorf("tasks/builtin/moddoc/%s.yml: no short description", name)
	}
	for _, m := range []string{d.CheckMode, d.DiffMode} {
		switch m {
		case "", "full", "partial", "none":
		default:
			return nil, fmt.Errorf("tasks/builtin/moddoc/%s.yml: check_mode and diff_mode are full, partial or none, not %q", name, m)
		}
	}
	return &d, nil
}

// FQCN is the fully qualified name of a module registered under name
// with aliases: the collection's name tender implements it for
// (ansible.posix.mount), or ansible.builtin's.
func FQCN(name string, aliases []string) string {
	for _, a := range aliases {
		if strings.Count(a, ".") >= 2 && !strings.HasPrefix(a, "ansible.builtin.") && !strings.HasPrefix(a, "ansible.legacy.") {
			return a
		}
	}
	return "ansible.builtin." + name
}
