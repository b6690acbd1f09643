package moddoc

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/playbooks/expr/plugdoc"
	"github.com/tender-sh/tender/tasks"
)

// Module is a module or plugin to render: its names, the facts of its
// options (a module's Spec, a plugin's recorded Facts) and its Doc (the
// words).
type Module struct {
	// Name is the short name (ping); FQCN the fully qualified one
	// (ansible.builtin.ping, ansible.posix.mount).
	Name, FQCN string
	// Spec is a module's; Facts a plugin's (Spec nil).
	Spec  *tasks.Spec
	Facts *plugdoc.Facts
	Doc   *Doc
}

// Option is one option's facts, whether a module's parameter or a
// plugin's option.
type Option struct {
	Name, Type, Elements string
	Default              any
	Choices              any // a list, or a map of choice to its meaning
	Aliases              []string
	Required             bool
	SetVia               []string // ansible-doc's set_via lines (a callback's option)
}

// options lists m's options a task or template gives (a module's
// internal _raw_params and the like left out), sorted by name as
// ansible-doc sorts them.
func (m Module) options() []Option {
	var out []Option
	if m.Spec != nil {
		for _, p := range m.Spec.Params {
			if strings.HasPrefix(p.Name, "_") {
				continue
			}
			o := Option{Name: p.Name, Type: p.Kind.String(), Default: p.Default, Aliases: p.Aliases, Required: p.Required}
			if p.Kind == tasks.List {
				o.Elements = p.Elements.String()
			}
			if len(p.Choices) > 0 {
				o.Choices = p.Choices
			}
			out = append(out, o)
		}
	}
	if m.Facts != nil {
		for name, f := range m.Facts.Options {
			out = append(out, Option{Name: name, Type: f.Type, Elements: f.Elements, Default: f.Default,
				Choices: f.Choices, Aliases: f.Aliases, Required: f.Required, SetVia: f.SetVia})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Width is the text width the renderers wrap to, as ansible-doc wraps
// when its output is not a terminal.
const Width = 80

const indent = "        "

// Plain renders the markup of Ansible's documentation strings for a
// terminal, as ansible-doc renders it: I(x) and C(x) as `x', B(x) as
// *x*, M(x) as [x], U(x) as x, L(t,u) as "t <u>", R(t,r) as t. Unlike
// ansible-doc, a markup's text may hold balanced parentheses:
// C(f(x)) is `f(x)'.
func Plain(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if i+1 < len(s) && s[i+1] == '(' && strings.IndexByte("IBMULRC", c) >= 0 && (i == 0 || !isWord(s[i-1])) {
			if end := closing(s, i+1); end > 0 {
				b.WriteString(markup(c, s[i+2:end]))
				i = end
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// isWord: c may be part of a word (a markup letter after one is not
// markup: "ABC(x)").
func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// closing is the index of the parenthesis that closes the one at open,
// counting nested pairs; -1 when none does.
func closing(s string, open int) int {
	depth := 0
	for j := open; j < len(s); j++ {
		switch s[j] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// markup renders one markup kind with its text.
func markup(kind byte, text string) string {
	switch kind {
	case 'I', 'C':
		return "`" + text + "'"
	case 'B':
		return "*" + text + "*"
	case 'M':
		return "[" + text + "]"
	case 'U':
		return text
	}
	t, u, ok := strings.Cut(text, ",")
	if !ok {
		return text
	}
	if kind == 'L' {
		return t + " <" + strings.TrimSpace(u) + ">"
	}
	return t // R(text, reference)
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
	d := m.Doc
	s := m.Spec
	if s == nil {
		s = &tasks.Spec{}
	}
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
	for _, p := range m.options() {
		lead := "-"
		if p.Required {
			lead = "="
		}
		fmt.Fprintf(&b, "%s %s\n", lead, p.Name)
		for _, line := range d.Options[p.Name] {
			b.WriteString(wrap(Plain(line), limit, indent, indent) + "\n")
		}
		for _, f := range p.fields() {
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
		if m.Spec != nil {
			n = "Module " + n // a plugin's may name any kind
		}
		see = append(see, n)
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

// fields are o's facts as ansible-doc prints them, sorted by key.
func (o Option) fields() []string {
	var out []string
	if len(o.SetVia) > 0 {
		out = append(out, "set_via:")
		for _, l := range o.SetVia {
			out = append(out, "  "+l)
		}
	}
	if len(o.Aliases) > 0 {
		out = append(out, "aliases: "+flow(o.Aliases))
	}
	if o.Choices != nil {
		out = append(out, "choices: "+flow(o.Choices))
	}
	if o.Default != nil {
		out = append(out, "default: "+flow(o.Default))
	} else if !o.Required {
		out = append(out, "default: null")
	}
	if o.Elements != "" {
		out = append(out, "elements: "+o.Elements)
	}
	if o.Type != "" {
		out = append(out, "type: "+o.Type)
	}
	return out
}

// Snippet renders m as ansible-doc -s does: a task calling the module
// with each option and a comment saying what it is.
func Snippet(m Module) string {
	const pad = 29
	sub := strings.Repeat(" ", pad) + "# "
	var b strings.Builder
	fmt.Fprintf(&b, "- name: %s\n  %s:\n", Plain(m.Doc.Short), m.Name)
	for _, p := range m.options() {
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
	d := m.Doc
	opts := map[string]any{}
	for _, p := range m.options() {
		o := map[string]any{"description": []string(d.Options[p.Name])}
		if p.Type != "" {
			o["type"] = p.Type
		}
		if p.Required {
			o["required"] = true
		}
		if p.Default != nil {
			o["default"] = p.Default
		}
		if p.Choices != nil {
			o["choices"] = p.Choices
		}
		if len(p.Aliases) > 0 {
			o["aliases"] = p.Aliases
		}
		if p.Elements != "" {
			o["elements"] = p.Elements
		}
		opts[p.Name] = o
	}
	ns := m.FQCN[:strings.LastIndexByte(m.FQCN, '.')]
	doc := map[string]any{"collection": ns, "short_description": d.Short,
		"description": []string(d.Description), "options": opts}
	if m.Spec != nil {
		doc["module"], doc["has_action"] = m.Name, false
	} else {
		doc["name"] = m.Name
		if m.Facts.Positional != nil {
			doc["positional"] = m.Facts.Positional
		}
	}
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
	if m.Spec != nil && len(m.Spec.Refused) > 0 {
		doc["refused"] = m.Spec.Refused
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
