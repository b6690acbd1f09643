package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/tender-sh/tender/internal/fqcn"
	"github.com/tender-sh/tender/playbooks/expr/plugdoc"
	"github.com/tender-sh/tender/tasks/builtin/moddoc"
)

// pluginFQCN names a plugin as ansible-doc lists it: ansible.builtin's
// when ansible-core has it, else its bare name (Jinja2's own filters and
// tests, and plugins a program embedding tender registered).
func pluginFQCN(kind, name string) string {
	if _, ok := plugdoc.FactsOf(kind, name); ok {
		return "ansible.builtin." + name
	}
	return name
}

// listPlugins prints each plugin of kind tender runs with its summary,
// as ansible-doc -t KIND -l does (with -j, as a JSON object).
func listPlugins(w io.Writer, kind string, asJSON bool) error {
	sums := map[string]string{}
	for _, n := range plugdoc.Implemented(kind) {
		short := ""
		if d, err := plugdoc.For(kind, n); err == nil {
			short = d.Short
		}
		sums[pluginFQCN(kind, n)] = short
	}
	if asJSON {
		return docJSON(w, sums)
	}
	printSummaries(w, sums)
	return nil
}

// showPlugins prints the documentation of the named plugins of kind (a
// lookup's as a snippet, with snippet).
func showPlugins(w io.Writer, kind string, names []string, asJSON, snippet bool) error {
	out := map[string]any{}
	for _, arg := range names {
		name := fqcn.Short(arg)
		if !slices.Contains(plugdoc.Implemented(kind), name) {
			return fmt.Errorf("tender has no %s plugin %q; `tender doc -t %s -l` lists them", kind, arg, kind)
		}
		d, err := plugdoc.For(kind, name)
		if err != nil {
			return fmt.Errorf("tender runs the %s %q but has no documentation of it", kind, name)
		}
		f, ok := plugdoc.FactsOf(kind, name)
		if !ok {
			// one of Jinja2's builtins: its facts are tender's own
			_, f, _ = plugdoc.Jinja(kind, name)
		}
		m := moddoc.Module{Name: name, FQCN: pluginFQCN(kind, name), Facts: &f, Doc: d}
		switch {
		case asJSON:
			out[arg] = moddoc.JSON(m)
		case snippet:
			fmt.Fprintln(w, moddoc.LookupSnippet(m))
		default:
			fmt.Fprint(w, moddoc.Text(m))
		}
	}
	if asJSON {
		return docJSON(w, out)
	}
	return nil
}
