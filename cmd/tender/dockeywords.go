package main

import (
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/internal/suggest"
	"github.com/tender-sh/tender/playbooks/kwdoc"
	"github.com/tender-sh/tender/tasks/builtin/moddoc"
)

// showKeywords is ansible-doc -t keyword: with list, every playbook
// keyword and what it does; else the named keywords with the facts of
// each (what it applies to, its type, priority and templating), as YAML
// or (asJSON) JSON.
func showKeywords(w io.Writer, names []string, list, asJSON bool) error {
	all, err := kwdoc.All()
	if err != nil {
		return err
	}
	if list {
		sums := map[string]string{}
		for n, k := range all {
			sums[n] = moddoc.Plain(strings.Join(strings.Fields(k.Description), " "))
		}
		return keywordOut(w, sums, asJSON)
	}
	out := map[string]map[string]any{}
	for _, n := range names {
		k, ok := all[n]
		if !ok {
			return fmt.Errorf("%q is not a playbook keyword%s; `tender doc -t keyword -l` lists them", n, keywordHint(n))
		}
		e := map[string]any{"description": moddoc.Plain(strings.Join(strings.Fields(k.Description), " "))}
		for f, v := range k.Facts {
			e[f] = v
		}
		out[n] = e
	}
	return keywordOut(w, out, asJSON)
}

// keywordHint is a "did you mean" for a misspelt keyword.
func keywordHint(name string) string {
	best, dist := "", 3
	for _, n := range kwdoc.Names() {
		if d := suggest.Distance(name, n); d < dist {
			best, dist = n, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// keywordOut prints v as YAML, or as JSON.
func keywordOut(w io.Writer, v any, asJSON bool) error {
	if asJSON {
		return docJSON(w, v)
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return enc.Close()
}
