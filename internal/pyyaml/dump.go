// Package pyyaml writes values as PyYAML's yaml.dump writes them with
// Ansible's dumper: what the to_yaml and to_nice_yaml filters and the
// yaml stdout callback print. It imports nothing of tender's but
// internal/pydict, internal/pyfmt and internal/yaml11.
package pyyaml

import (
	"fmt"
	"iter"
	"maps"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/internal/pyfmt"

	"github.com/tender-sh/tender/internal/yaml11"
)

// Options say how Dump writes.
type Options struct {
	// Indent is the indentation of nested block collections (2 when
	// below 2).
	Indent int
	// FlowLeaves writes collections that hold no collection in flow
	// style (to_yaml, default_flow_style=None); otherwise block style is
	// used throughout but for empty collections (to_nice_yaml).
	FlowLeaves bool
	// Ordered keeps each mapping's keys in their order (sort_keys=False);
	// otherwise they are sorted.
	Ordered bool
	// BlockText writes text holding a line break as a literal block
	// ("|-"), cleaned as the yaml stdout callback cleans it: trailing
	// white space and unprintable characters dropped, tabs expanded.
	BlockText bool
	// Scalar renders a value of a type Dump does not know (its text, and
	// whether to write that text as it is rather than as a string);
	// nil writes fmt.Sprint's text as a string.
	Scalar func(v any) (text string, raw bool)
}

// Dump renders v as PyYAML's yaml.dump does with Ansible's dumper:
// keys sorted, sequences in a mapping not indented, plain scalars where
// they would read back as the same string, quoted ones otherwise. It
// knows nil, bool, int, *big.Int, float64, string, yaml11.Unsafe, []any
// and map[string]any.
func Dump(v any, o Options) string {
	if o.Indent < 2 {
		o.Indent = 2
	}
	e := &yamlEmitter{indent: o.Indent, flowLeaves: o.FlowLeaves, ordered: o.Ordered, blockText: o.BlockText, other: o.Scalar}
	if !isCollection(v) || e.flow(v) {
		if s, ok := e.literal(v, 0); ok {
			return s
		}
		return e.flowValue(v) + "\n"
	}
	e.block(v, 0)
	return e.b.String()
}

type yamlEmitter struct {
	b          strings.Builder
	indent     int
	flowLeaves bool
	ordered    bool
	blockText  bool
	other      func(any) (string, bool)
}

// keys are a mapping's keys in the order they are written.
func (e *yamlEmitter) keys(m map[string]any) []string {
	if e.ordered {
		return pydict.Keys(m)
	}
	return slices.Sorted(maps.Keys(m))
}

func isCollection(v any) bool {
	switch v.(type) {
	case []any, map[string]any:
		return true
	}
	return false
}

// flow reports whether a collection is written in flow style.
func (e *yamlEmitter) flow(v any) bool {
	switch t := v.(type) {
	case []any:
		return e.flowOf(len(t), slices.Values(t))
	case map[string]any:
		return e.flowOf(len(t), maps.Values(t))
	}
	return true
}

// flowOf is flow for a collection of n elements: an empty one always,
// else with flowLeaves one that holds no collection.
func (e *yamlEmitter) flowOf(n int, elems iter.Seq[any]) bool {
	if n == 0 {
		return true
	}
	if !e.flowLeaves {
		return false
	}
	for x := range elems {
		if isCollection(x) {
			return false
		}
	}
	return true
}

func (e *yamlEmitter) flowValue(v any) string {
	switch t := v.(type) {
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = e.scalar(x, true)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		parts := []string{}
		for _, k := range e.keys(t) {
			parts = append(parts, e.scalar(k, true)+": "+e.scalar(t[k], true))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return e.scalar(v, false)
}

func (e *yamlEmitter) block(v any, level int) {
	pad := strings.Repeat(" ", level)
	switch t := v.(type) {
	case []any:
		for _, x := range t {
			e.b.WriteString(pad + "-")
			if isCollection(x) && !e.flow(x) {
				// "- key: value" (or "- - item") with the rest aligned
				e.b.WriteString(strings.Repeat(" ", e.indent-1))
				e.inlineBlock(x, level+e.indent)
				continue
			}
			e.scalarLine(x, level)
		}
	case map[string]any:
		for _, k := range e.keys(t) {
			x := t[k]
			e.b.WriteString(pad + e.scalar(k, false) + ":")
			if isCollection(x) && !e.flow(x) {
				e.b.WriteString("\n")
				if _, isList := x.([]any); isList {
					e.block(x, level)
				} else {
					e.block(x, level+e.indent)
				}
				continue
			}
			e.scalarLine(x, level)
		}
	}
}

// scalarLine ends a "key:" or "-" line with x: a literal block, or its
// flow form.
func (e *yamlEmitter) scalarLine(x any, level int) {
	if lit, ok := e.literal(x, level); ok {
		e.b.WriteString(" " + lit)
		return
	}
	e.b.WriteString(" " + e.flowValue(x) + "\n")
}

// inlineBlock writes a block collection whose first line continues the
// current line (after "- ").
func (e *yamlEmitter) inlineBlock(v any, level int) {
	sub := yamlEmitter{indent: e.indent, flowLeaves: e.flowLeaves, ordered: e.ordered, blockText: e.blockText, other: e.other}
	sub.block(v, level)
	e.b.WriteString(strings.TrimLeft(sub.b.String(), " "))
}

var yamlTimestamp = regexp.MustCompile(`^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}`)

// scalar renders a scalar as PyYAML's representer and emitter choose.
func (e *yamlEmitter) scalar(v any, inFlow bool) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(t)
	case int:
		return strconv.Itoa(t)
	case *big.Int:
		return t.String()
	case float64:
		s := pyfmt.Float(t)
		switch s {
		case "inf":
			return ".inf"
		case "-inf":
			return "-.inf"
		case "nan":
			return ".nan"
		}
		if strings.Contains(s, "e") && !strings.Contains(s, ".") {
			s = strings.Replace(s, "e", ".0e", 1)
		}
		return s
	case string:
		return e.quoted(t, inFlow)
	case yaml11.Unsafe:
		return e.quoted(string(t), inFlow)
	case []any, map[string]any:
		return e.flowValue(v)
	}
	if e.other != nil {
		s, raw := e.other(v)
		if raw {
			return s
		}
		return e.quoted(s, inFlow)
	}
	return e.quoted(fmt.Sprint(v), inFlow)
}

// quoted writes text plain when it reads back as itself, else quoted as
// PyYAML quotes it.
func (e *yamlEmitter) quoted(s string, inFlow bool) string {
	if plainOK(s, inFlow) {
		return s
	}
	for _, r := range s {
		if r < 0x20 && r != ' ' || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0xfeff {
			return doubleQuoted(s)
		}
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

func plainOK(s string, inFlow bool) bool {
	if s == "" || s != strings.TrimSpace(s) {
		return false
	}
	if r, ok := yaml11.Scalar(s).(string); !ok || r != s || yamlTimestamp.MatchString(s) || s == "<<" || s == "=" {
		return false
	}
	if strings.ContainsAny(s[:1], "#,[]{}&*!|>'\"%@`") {
		return false
	}
	if strings.ContainsAny(s[:1], "-?:") && (len(s) == 1 || s[1] == ' ') {
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") {
		return false
	}
	if inFlow && strings.ContainsAny(s, ",?[]{}") {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return false
		}
	}
	return true
}

func doubleQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			b.WriteString(fmt.Sprintf(`\x%02x`, r))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
