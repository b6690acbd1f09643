package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/tender-sh/tender/playbooks/expr/plugdoc"
	"github.com/tender-sh/tender/provision/report/cbdoc"
	"github.com/tender-sh/tender/tasks/builtin/moddoc"
)

// listCallbacks prints each callback tender has with its summary, as
// ansible-doc -t callback -l does (with -j, as a JSON object).
func listCallbacks(w io.Writer, asJSON bool) error {
	all, err := cbdoc.All()
	if err != nil {
		return err
	}
	sums := map[string]string{}
	for n, c := range all {
		sums[n] = c.Doc.Short
	}
	if asJSON {
		return docJSON(w, sums)
	}
	printSummaries(w, sums)
	return nil
}

// showCallbacks prints the documentation of the named callbacks: what
// each prints and its options with the settings that set them.
func showCallbacks(w io.Writer, names []string, asJSON bool) error {
	if _, err := cbdoc.All(); err != nil {
		return err
	}
	out := map[string]any{}
	for _, arg := range names {
		c, ok := cbdoc.Find(arg)
		if !ok {
			return fmt.Errorf("tender has no callback %q; `tender doc -t callback -l` lists them", arg)
		}
		f := plugdoc.Facts{Options: map[string]plugdoc.Option{}}
		for n, o := range c.Facts.Options {
			f.Options[n] = plugdoc.Option{Type: o.Type, Default: o.Default, Choices: o.Choices, Required: o.Required, SetVia: o.SetVia()}
		}
		m := moddoc.Module{Name: c.FQCN[strings.LastIndex(c.FQCN, ".")+1:], FQCN: c.FQCN, Facts: &f, Doc: c.Doc}
		if asJSON {
			j := moddoc.JSON(m)
			if doc, ok := j["doc"].(map[string]any); ok {
				doc["type"] = c.Facts.Type
			}
			out[arg] = j
			continue
		}
		fmt.Fprint(w, moddoc.Text(m))
	}
	if asJSON {
		return docJSON(w, out)
	}
	return nil
}
