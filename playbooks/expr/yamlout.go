package expr

import (
	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/internal/pyfmt"
	"iter"
	"maps"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/yaml11"
)

// toYAML renders v as PyYAML's yaml.dump does for Ansible's to_yaml
// (flowLeaves: collections of scalars in flow style) and to_nice_yaml
// (block style throughout): keys sorted, sequences in a mapping not
// indented, plain scalars where they would read back as the same string.
//
// ordered keeps each mapping's keys in their order (sort_keys=False).
func toYAML(v any, indent int, flowLeaves, ordered bool) string {
	e := &yamlEmitter{indent: indent, flowLeaves: flowLeaves, ordered: ordered}
	if !isCollection(v) || e.flow(v) {
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
}

// keys are a mapping's keys in the order they are written.
func (e *yamlEmitter) keys(m map[string]any) []string {
	if e.ordered {
		return pydict.Keys(m)
	}
	return sortedKeys(m)
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
				if _, isMap := x.(map[string]any); isMap {
					// "- key: value" with the rest of the mapping aligned
					e.b.WriteString(strings.Repeat(" ", e.indent-1))
					e.inlineBlock(x, level+e.indent)
					continue
				}
				e.b.WriteString(strings.Repeat(" ", e.indent-1))
				e.inlineBlock(x, level+e.indent)
				continue
			}
			e.b.WriteString(" " + e.flowValue(x) + "\n")
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
			e.b.WriteString(" " + e.flowValue(x) + "\n")
		}
	}
}

// inlineBlock writes a block collection whose first line continues the
// current line (after "- ").
func (e *yamlEmitter) inlineBlock(v any, level int) {
	var sub yamlEmitter
	sub.indent, sub.flowLeaves = e.indent, e.flowLeaves
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
	case *undefined:
		return ""
	}
	s, _ := text(v)
	if isCollection(v) {
		return e.flowValue(v)
	}
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
			b.WriteString(`\x` + leftPad(strconv.FormatInt(int64(r), 16), 2))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
