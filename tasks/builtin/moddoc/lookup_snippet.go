package moddoc

import (
	"fmt"
	"strings"

	"github.com/tender-sh/tender/internal/pyfmt"
)

// LookupSnippet is ansible-doc -s's snippet for a lookup plugin: a
// comment line per option (its type and description), then a
// lookup('NAME', ...) call with the terms as a placeholder, a required
// option as <REQUIRED> and every other at its default.
func LookupSnippet(m Module) string {
	var comments []string
	call := "lookup('" + m.Name + "', "
	for _, o := range m.options() {
		typ := o.Type
		if typ == "" {
			typ = "string"
		}
		comments = append(comments, fmt.Sprintf("# %s(%s): %s", o.Name, typ, Plain(strings.Join(m.Doc.Options[o.Name], " "))))
		switch o.Name {
		case "_terms", "_raw", "_list":
			call += "< " + o.Name + " >"
			continue
		}
		def := "None"
		switch {
		case o.Required:
			def = "<REQUIRED>"
		case o.Default != nil:
			def = pyfmt.Str(o.Default)
		}
		if typ == "string" || typ == "str" {
			call += fmt.Sprintf(", %s='%s'", o.Name, def)
		} else {
			call += fmt.Sprintf(", %s=%s", o.Name, def)
		}
	}
	call += ")"
	if len(comments) > 0 {
		return strings.Join(comments, "\n") + "\n\n" + call + "\n"
	}
	return call + "\n"
}
