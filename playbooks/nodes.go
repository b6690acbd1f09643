package playbooks

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/internal/boolean"
	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/internal/yaml11"
)

// entry is one key of a mapping node, with merge keys (<<) resolved.
type entry struct {
	key  string
	k, v *yaml.Node
}

// deref follows aliases.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// kindName names a node's kind for error messages.
func kindName(n *yaml.Node) string {
	n = deref(n)
	switch {
	case n == nil:
		return "nothing"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Tag == "!!null":
		return "null"
	default:
		return "a scalar"
	}
}

// entries lists a mapping's keys in order; merged (<<) keys come first and
// are overridden by explicit ones. A later duplicate key wins, as in Ansible.
// A mapping is read once (its problems reported once): anchors that merge
// one another cost one pass each, not one per alias. Callers must not
// modify the list.
func (l *loader) entries(file string, n *yaml.Node) []entry {
	n = deref(n)
	if es, ok := l.merged[n]; ok {
		return es
	}
	if l.active[n] {
		l.errs.add(file, n, "a mapping merges itself through a YAML alias")
		return nil
	}
	l.active[n] = true
	defer delete(l.active, n)
	out := l.readEntries(file, n)
	l.merged[n] = out
	return out
}

// readEntries is entries without the memo.
func (l *loader) readEntries(file string, n *yaml.Node) []entry {
	var out []entry
	index := map[string]int{}
	put := func(e entry) {
		if i, ok := index[e.key]; ok {
			out[i] = e
			return
		}
		index[e.key] = len(out)
		out = append(out, e)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Tag == "!!merge" || (k.Value == "<<" && k.Style == 0) {
			src := deref(v)
			var maps []*yaml.Node
			if src.Kind == yaml.SequenceNode {
				maps = src.Content
			} else {
				maps = []*yaml.Node{src}
			}
			for _, m := range maps {
				if m = deref(m); m.Kind == yaml.MappingNode {
					for _, e := range l.entries(file, m) {
						if _, ok := index[e.key]; !ok {
							put(e)
						}
					}
				}
			}
			continue
		}
		key, err := yaml11.Key(k)
		if err != nil {
			l.errs.add(file, k, "bad key: %v", err)
			continue
		}
		put(entry{key: key, k: k, v: v})
	}
	return out
}

// value converts a node to a raw value with Ansible's YAML 1.1 rules, with
// one alias budget for each file.
func (l *loader) value(file string, n *yaml.Node) any {
	dec := l.decoders[file]
	if dec == nil {
		dec = yaml11.NewDecoder()
		dec.Decrypt = l.opts.Decrypt
		l.decoders[file] = dec
	}
	v, err := dec.Value(n)
	if err != nil {
		var ye *yaml11.Error
		if errors.As(err, &ye) {
			l.errs.list = append(l.errs.list, &Error{Pos: Pos{File: file, Line: ye.Line, Col: ye.Col}, Msg: ye.Msg, Err: err})
		} else {
			l.errs.wrap(file, n, err, "%v", err)
		}
		return nil
	}
	return v
}

// str reads a scalar as a string ("" for null); a collection is an error.
func (l *loader) str(file, key string, n *yaml.Node) string {
	n = deref(n)
	if n.Kind != yaml.ScalarNode {
		l.errs.add(file, n, "%s must be a string, not %s", key, kindName(n))
		return ""
	}
	if n.Tag == "!!null" {
		return ""
	}
	switch v := l.value(file, n).(type) {
	case string:
		return v
	case yaml11.Unsafe:
		return string(v)
	case bool:
		return pyBool(v)
	default:
		return n.Value
	}
}

// strList reads a string or a list of strings.
func (l *loader) strList(file, key string, n *yaml.Node) []string {
	n = deref(n)
	if n.Kind == yaml.SequenceNode {
		out := make([]string, 0, len(n.Content))
		for _, c := range n.Content {
			out = append(out, l.str(file, key, c))
		}
		return out
	}
	if n.Tag == "!!null" {
		return nil
	}
	return []string{l.str(file, key, n)}
}

// conds reads a condition keyword: a string, a bool, or a list of them.
func (l *loader) conds(file, key string, n *yaml.Node) []string {
	return l.strList(file, key, n)
}

// tags reads tags: a string (split on commas), a number, or a list.
func (l *loader) tags(file string, n *yaml.Node) []string {
	n = deref(n)
	if n.Kind == yaml.SequenceNode {
		return l.strList(file, "tags", n)
	}
	var out []string
	for _, t := range strings.Split(l.str(file, "tags", n), ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// boolean reads a boolean keyword: a YAML boolean, a string Ansible's
// boolean() accepts, or a template kept for run time.
func (l *loader) boolean(file, key string, n *yaml.Node) Bool {
	n = deref(n)
	if n.Kind != yaml.ScalarNode {
		if !l.playLevel {
			l.warns.add(file, n, "%s must be a boolean, not %s: the task fails when it runs", key, kindName(n))
			return Bool{Set: true, Bad: l.value(file, n)}
		}
		l.errs.add(file, n, "%s must be a boolean, not %s", key, kindName(n))
		return Bool{}
	}
	switch v := l.value(file, n).(type) {
	case bool:
		return Bool{Set: true, Value: v}
	case int:
		if v == 0 || v == 1 {
			return Bool{Set: true, Value: v == 1}
		}
	case string:
		if strings.Contains(v, "{{") || strings.Contains(v, "{%") {
			return Bool{Set: true, Expr: v}
		}
		if b, ok := boolean.Word(v); ok || v == "" {
			return Bool{Set: true, Value: b}
		}
	case nil:
		return Bool{}
	}
	if !l.playLevel {
		// Ansible checks a task's keywords when the task runs.
		l.warns.add(file, n, "%s must be a boolean, not %q: the task fails when it runs", key, n.Value)
		return Bool{Set: true, Bad: l.value(file, n)}
	}
	l.errs.add(file, n, "%s must be a boolean, not %q", key, n.Value)
	return Bool{}
}

// vars reads a vars mapping (or a list of mappings, merged, as old
// playbooks wrote them).
func (l *loader) vars(file, key string, n *yaml.Node) map[string]any {
	n = deref(n)
	out := pydict.NewBuilder(0)
	switch {
	case n.Kind == yaml.MappingNode:
		v, _ := l.value(file, n).(map[string]any)
		for _, k := range pydict.Keys(v) {
			out.Set(k, v[k])
		}
	case n.Kind == yaml.SequenceNode:
		for _, c := range n.Content {
			if deref(c).Kind != yaml.MappingNode {
				l.errs.add(file, c, "%s: each list item must be a mapping, not %s", key, kindName(c))
				continue
			}
			v := l.vars(file, key, c)
			for _, k := range pydict.Keys(v) {
				out.Set(k, v[k])
			}
		}
	case n.Tag == "!!null":
	default:
		l.errs.add(file, n, "%s must be a mapping, not %s", key, kindName(n))
	}
	return out.Map()
}

// checkVarNames reports vars: keys that are not valid variable names, as
// Ansible does: ASCII Python identifiers that are not Python keywords.
func (l *loader) checkVarNames(file string, n *yaml.Node) {
	n = deref(n)
	if n.Kind == yaml.SequenceNode {
		for _, c := range n.Content {
			l.checkVarNames(file, c)
		}
		return
	}
	if n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Tag == "!!merge" || k.Value == "<<" {
			continue
		}
		if !isIdentifier(k.Value) {
			l.errs.add(file, k, "%q is not a valid variable name", k.Value)
		}
	}
}

// isIdentifier reports whether s is an ASCII Python identifier and not a
// Python keyword.
func isIdentifier(s string) bool {
	if s == "" || pyKeywords[s] {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

var pyKeywords = set(nil, "False", "None", "True", "and", "as", "assert", "async", "await", "break",
	"class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
	"if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
	"while", "with", "yield")

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// isTemplate reports whether s holds Jinja2 markup.
func isTemplate(s string) bool {
	return strings.Contains(s, "{{") || strings.Contains(s, "{%") || strings.Contains(s, "{#")
}

// typeName names a raw value's type for error messages.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	default:
		return fmt.Sprintf("%T", v)
	}
}
