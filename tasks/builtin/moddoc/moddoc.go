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
	"embed"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/playbooks/expr/plugdoc"
)

//go:embed *.yml
var files embed.FS

// Doc is one module's documentation (the shape plugins' share).
type Doc = plugdoc.Doc

// Return is one returned value's documentation.
type Return = plugdoc.Return

// Lines is text given as one string or as a list of paragraphs.
type Lines = plugdoc.Lines

// Names lists the modules that have a documentation file, sorted.
func Names() []string { return plugdoc.YAMLNames(files, ".") }

// For reads the documentation of module name (its short name). A file
// that is not valid (an unknown key, a wrong type) is an error naming it,
// so a mistake in one fails the tests rather than hiding a section.
func For(name string) (*Doc, error) {
	b, err := files.ReadFile(name + ".yml")
	if err != nil {
		return nil, fmt.Errorf("no documentation for module %q", name)
	}
	return plugdoc.Decode(b, "tasks/builtin/moddoc/"+name+".yml")
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
