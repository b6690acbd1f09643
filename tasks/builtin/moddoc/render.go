package moddoc

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/tasks"
)

// Module is a module to render: its names, its Spec (the parameters'
// facts) and its Doc (the words).
type Module struct {
	// Name is the short name (ping); FQCN the fully qualified one
	// (ansible.builtin.ping, ansible.posix.mount).
	Name, FQCN string
	Spec       *tasks.Spec
	Doc        *Doc
}

// Width is the text width the renderers wrap to, as ansible-doc wraps
// when its output is not a terminal.
const Width = 80

const indent = "        "

// The markup of Ansible's documentation strings, rendered for a
// terminal as ansible-doc renders it: I(x) and C(x) as `x', B(x) as *x*,
// M(x) as [x], U(x) as x, L(t,u) as "t <u>", R(t,r) as t.
var (
	markItalic = regexp.MustCompile(`\bI\(([^)]+)\)`)
	markBold   = regexp.MustCompile(`\bB\(([^)]+)\)`)
	markModule = regexp.MustCompile(`\bM\(([^)]+)\)`)
	markURL    = regexp.MustCompile(`\bU\(([^)]+)\)`)
	markLink   = regexp.MustCompile(`\bL\(([^)]+), *([^)]+)\)`)
	markRef    = regexp.MustCompile(`\bR\(([^)]+), *([^)]+)\)`)
	markConst  = regexp.MustCompile(`\bC\(([^)]+)\)`)
)

// Plain renders the markup of s for a terminal.
func Plain(s string) string {
	s = markItalic.ReplaceAllString(s, "`$1'")
	s = markBold.ReplaceAllString(s, "*$1*")
	s = markModule.ReplaceAllString(s, "[$1]")
	s = markURL.ReplaceAllString(s, "$1")
	s = markLink.ReplaceAllString(s, "$1 <$2>")
	s = markRef.ReplaceAllString(s, "$1")
	return markConst.ReplaceAllString(s, "`$1'")
}

// wrap fills s into lines of at most width characters, the first
// starting with first and the others with rest, breaking at spaces (a
// word longer than a line stands alone), as Python's textwrap.fill.
func wrap(s string, width int, first, rest string) string {
	words := strings.Fields(s)
	var b strings.Builder
	line := first
	empty := true
	for _, w := range words {
		if !empty && len(line)+1+len(w) > width {
			b.WriteString(line)
			b.WriteByte('\n')
			line, empty = rest, true
		}
		if !empty {
			line += " "
		}
		line += w
		empty = false
	}
	b.WriteString(line)
	return b.String()
}

// flow renders v as one line of YAML ([a, b] for a list).
func flow(v any) string {
	n := &yaml.Node{}
	if err := n.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	n.Style = yaml.FlowStyle
	for _, c := range n.Content {
		c.Style |= yaml.FlowStyle
	}
	b, err := yaml.Marshal(n)
	if err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSpace(string(b))
}

// Text renders m as ansible-doc's text: the description, the options
// (= marks a required one) with their facts, notes, related modules,
// the check and diff support, the options tender refuses, the examples
// and the return values.
func Text(m Module) string {
	d, s := m.Doc, m.Spec
	var b strings.Builder
	limit := max(Width-Width/5, 70)
	fmt.Fprintf(&b, "> %s    (built into tender)\n\n", strings.ToUpper(m.FQCN))
	b.WriteString(wrap(Plain(strings.Join(d.Description, " ")), limit, indent, indent))
	b.WriteString("\n\n")
	if s.FreeForm {
		b.WriteString(wrap("The command line follows the module's name (free form).", limit, indent, indent) + "\n\n")
	}
	if s.Other != "" {
		b.WriteString(wrap("Also takes: "+s.Other+".", limit, indent, indent) + "\n\n")
	}
	b.WriteString("OPTIONS (= is mandatory):\n\n")
	for _, p := range documented(s) {
		lead := "-"
		if p.Required {
			lead = "="
		}
		fmt.Fprintf(&b, "%s %s\n", lead, p.Name)
		for _, line := range d.Options[p.Name] {
			b.WriteString(wrap(Plain(line), limit, indent, indent) + "\n")
		}
		for _, f := range paramFields(p) {
			b.WriteString(indent + f + "\n")
		}
		b.WriteString("\n")
	}
	if len(s.Refused) > 0 {
		b.WriteString("REFUSED BY TENDER (Ansible's module takes them):\n")
		for _, o := range sortedKeys(s.Refused) {
			b.WriteString(wrap(o+": "+s.Refused[o], limit, "      * ", indent) + "\n")
		}
		b.WriteString("\n")
	}
	if d.CheckMode != "" || d.DiffMode != "" {
		b.WriteString("ATTRIBUTES:\n\n")
		for _, a := range [][2]string{{"check_mode", d.CheckMode}, {"diff_mode", d.DiffMode}} {
			if a[1] != "" {
				fmt.Fprintf(&b, "%s%s:\n%s  support: %s\n", indent, a[0], indent, a[1])
			}
		}
		b.WriteString("\n")
	}
	list := func(title string, items []string) {
		if len(items) == 0 {
			return
		}
		b.WriteString(title + ":\n")
		for _, it := range items {
			b.WriteString(wrap(Plain(it), limit, "      * ", indent) + "\n")
		}
		b.WriteString("\n")
	}
	list("NOTES", d.Notes)
	list("REQUIREMENTS", d.Requirements)
	var see []string
	for _, n := range d.SeeAlso {
		see = append(see, "Module "+n)
	}
	list("SEE ALSO", see)
	if d.Examples != "" {
		b.WriteString("EXAMPLES:\n\n" + strings.TrimRight(d.Examples, "\n") + "\n\n")
	}
	if len(d.Returns) > 0 {
		b.WriteString("RETURN VALUES:\n")
		returnFields(&b, d.Returns, limit, indent, "")
	}
	return b.String()
}

// returnFields writes the return values rs as ansible-doc lists them.
func returnFields(b *strings.Builder, rs map[string]Return, limit int, in, base string) {
	for _, k := range sortedKeys(rs) {
		r := rs[k]
		fmt.Fprintf(b, "%s- %s\n", base, k)
		for _, line := range r.Description {
			b.WriteString(wrap(Plain(line), limit, in, in) + "\n")
		}
		if r.Elements != "" {
			fmt.Fprintf(b, "%selements: %s\n", in, r.Elements)
		}
		if r.Returned != "" {
			fmt.Fprintf(b, "%sreturned: %s\n", in, r.Returned)
		}
		if r.Sample != nil {
			fmt.Fprintf(b, "%ssample: %s\n", in, flow(r.Sample))
		}
		if r.Type != "" {
			fmt.Fprintf(b, "%stype: %s\n", in, r.Type)
		}
		if len(r.Contains) > 0 {
			fmt.Fprintf(b, "\n%sCONTAINS:\n\n", in)
			returnFields(b, r.Contains, limit, in+"    ", in)
		}
		b.WriteString("\n")
	}
}

// documented lists the parameters a playbook gives (not the internal
// _raw_params and the like), sorted by name as ansible-doc sorts them.
func documented(s *tasks.Spec) []tasks.Param {
	var out []tasks.Param
	for _, p := range s.Params {
		if !strings.HasPrefix(p.Name, "_") {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// paramFields are p's facts as ansible-doc prints them, sorted by key.
func paramFields(p tasks.Param) []string {
	var out []string
	if len(p.Aliases) > 0 {
		out = append(out, "aliases: "+flow(p.Aliases))
	}
	if len(p.Choices) > 0 {
		out = append(out, "choices: "+flow(p.Choices))
	}
	if p.Default != nil {
		out = append(out, "default: "+flow(p.Default))
	} else if !p.Required {
		out = append(out, "default: null")
	}
	if p.Kind == tasks.List {
		out = append(out, "elements: "+p.Elements.String())
	}
	return append(out, "type: "+p.Kind.String())
}

// Snippet renders m as ansible-doc -s does: a task calling the module
// with each option and a comment saying what it is.
func Snippet(m Module) string {
	const pad = 29
	sub := strings.Repeat(" ", pad) + "# "
	var b strings.Builder
	fmt.Fprintf(&b, "- name: %s\n  %s:\n", Plain(m.Doc.Short), m.Name)
	for _, p := range documented(m.Spec) {
		desc := Plain(strings.Join(m.Doc.Options[p.Name], " "))
		if p.Required {
			desc = "(required) " + desc
		}
		// Every line of the comment fills the width (ansible-doc's
		// narrows the lines after the first to a few words).
		text := strings.TrimLeft(wrap(desc, Width, sub, sub), " ")
		fmt.Fprintf(&b, "      %-20s   %s\n", p.Name+":", text)
	}
	return b.String()
}

// JSON is m's documentation in the shape of ansible-doc --json's entry
// for one module: doc, examples, metadata and return.
func JSON(m Module) map[string]any {
	d, s := m.Doc, m.Spec
	opts := map[string]any{}
	for _, p := range documented(s) {
		o := map[string]any{"description": []string(d.Options[p.Name]), "type": p.Kind.String()}
		if p.Required {
			o["required"] = true
		}
		if p.Default != nil {
			o["default"] = p.Default
		}
		if len(p.Choices) > 0 {
			o["choices"] = p.Choices
		}
		if len(p.Aliases) > 0 {
			o["aliases"] = p.Aliases
		}
		if p.Kind == tasks.List {
			o["elements"] = p.Elements.String()
		}
		opts[p.Name] = o
	}
	ns := m.FQCN[:strings.LastIndexByte(m.FQCN, '.')]
	doc := map[string]any{"module": m.Name, "collection": ns, "short_description": d.Short,
		"description": []string(d.Description), "options": opts, "has_action": false}
	if len(d.Notes) > 0 {
		doc["notes"] = []string(d.Notes)
	}
	if len(d.Requirements) > 0 {
		doc["requirements"] = []string(d.Requirements)
	}
	if len(d.SeeAlso) > 0 {
		var see []any
		for _, n := range d.SeeAlso {
			see = append(see, map[string]any{"module": n})
		}
		doc["seealso"] = see
	}
	attrs := map[string]any{}
	for _, a := range [][2]string{{"check_mode", d.CheckMode}, {"diff_mode", d.DiffMode}} {
		if a[1] != "" {
			attrs[a[0]] = map[string]any{"support": a[1]}
		}
	}
	if len(attrs) > 0 {
		doc["attributes"] = attrs
	}
	if len(s.Refused) > 0 {
		doc["refused"] = s.Refused
	}
	var ret any
	if len(d.Returns) > 0 {
		ret = returnsJSON(d.Returns)
	}
	return map[string]any{"doc": doc, "examples": d.Examples, "metadata": nil, "return": ret}
}

func returnsJSON(rs map[string]Return) map[string]any {
	out := map[string]any{}
	for k, r := range rs {
		e := map[string]any{"description": strings.Join(r.Description, " ")}
		if len(r.Description) > 1 {
			e["description"] = []string(r.Description)
		}
		for key, v := range map[string]string{"returned": r.Returned, "type": r.Type, "elements": r.Elements} {
			if v != "" {
				e[key] = v
			}
		}
		if r.Sample != nil {
			e["sample"] = r.Sample
		}
		if len(r.Contains) > 0 {
			e["contains"] = returnsJSON(r.Contains)
		}
		out[k] = e
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
