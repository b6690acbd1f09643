// Package yaml11 turns go.yaml.in/yaml/v3 nodes into plain Go values the way
// Ansible's loader reads YAML: with YAML 1.1 scalar rules, so `yes`, `no`,
// `on` and `off` are booleans and `0755` is an octal integer.
//
// The values it produces are the ones every tender package shares: nil, bool,
// int, float64, string, Unsafe, []any and map[string]any, the maps keeping
// the order of their keys (internal/pydict). It imports nothing else of
// tender's own, so the pure packages (inventory, playbooks) may use it.
package yaml11

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/internal/pydict"
)

// Unsafe is a string tagged `!unsafe` in YAML. Ansible never templates such a
// value; tender's template engine returns it verbatim.
type Unsafe string

// Error is a conversion error at a position in the YAML source.
type Error struct {
	Line, Col int
	Msg       string
}

// Error implements error as "line:col: msg".
func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

func errAt(n *yaml.Node, format string, args ...any) error {
	return &Error{Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)}
}

// maxDepth bounds alias expansion so a document built of nested aliases (a
// "billion laughs") fails instead of exhausting memory.
const maxDepth = 10000

// maxAliasExpansion bounds the values a document's aliases stand for, seen
// as a tree (as every consumer that walks a value sees it): an alias adds
// the whole subtree of its anchor, nested aliases included. A document
// past it is refused at the alias that crosses it, as yaml.v3 refuses
// excessive aliasing when it decodes into Go values itself. Anchors that
// real content shares (a dict of defaults merged into a few others) stay
// far below it.
const maxAliasExpansion = 1_000_000

// Value converts n (a document, mapping, sequence, scalar or alias node) into
// a plain Go value. A nil node or an empty document is nil. Mapping keys are
// turned into strings as Python's str() would print them; duplicate keys keep
// the last value, as Ansible does. Merge keys (`<<`) are resolved.
//
// An anchor and every alias of it yield the same converted value (Python's
// loader shares one object the same way), so a document that repeats an
// anchor many times, or merges it (`<<: *a`), converts it once and stays
// cheap; callers must not modify the maps and lists they get.
func Value(n *yaml.Node) (any, error) {
	return NewDecoder().Value(n)
}

// Decoder converts the nodes of one YAML document in as many calls as its
// reader needs (one per variable, per host, per task), with one alias
// budget for them all: a document whose variables each alias the same
// large anchor is refused as a single value holding them all would be,
// however its reader splits it. Values are not shared between calls. A
// Decoder is not safe for concurrent use.
type Decoder struct {
	sizes    map[*yaml.Node]int
	expanded int
	// Decrypt, when set, opens the vault data of a value tagged `!vault`
	// and of a whole vault-encrypted file (Vars); its plaintext is the
	// value. Without it such values are refused. Its errors are reported
	// at the value's line and column.
	Decrypt Decrypter
	// KeepVault leaves values tagged `!vault` encrypted: each is
	// {"__ansible_vault": its vault text}, as ansible-inventory's JSON
	// shows them, and needs no secret. Whole vault-encrypted files are
	// still opened with Decrypt.
	KeepVault bool
	// Duplicates is what Vars and VarsList do about a key a mapping
	// gives twice (CheckDuplicates); Warn receives the warnings, and
	// without it DuplicatesWarn says nothing.
	Duplicates DuplicatePolicy
	Warn       func(msg string)
}

// Decrypter opens Ansible Vault data (vault.Keyring's Decrypt with no file
// name fits it).
type Decrypter func(vaulttext []byte) ([]byte, error)

// NewDecoder returns a Decoder for one document, its budget unspent.
func NewDecoder() *Decoder { return &Decoder{sizes: map[*yaml.Node]int{}} }

// Value converts n as the package's Value does, counting its aliases
// against the budget the document's earlier values have used.
func (d *Decoder) Value(n *yaml.Node) (any, error) {
	c := &converter{budget: maxDepth * 100, anchors: map[*yaml.Node]any{}, sizes: d.sizes, expanded: d.expanded, decrypt: d.Decrypt, keepVault: d.KeepVault}
	v, err := c.value(n, 0)
	d.expanded = c.expanded
	return v, err
}

type converter struct {
	budget  int
	anchors map[*yaml.Node]any
	// sizes memoizes treeSize; expanded sums the tree sizes of the
	// aliases met so far.
	sizes     map[*yaml.Node]int
	expanded  int
	decrypt   Decrypter
	keepVault bool
}

// treeSize is the number of nodes n stands for when its aliases are
// expanded, saturating past maxAliasExpansion.
func (c *converter) treeSize(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	if s, ok := c.sizes[n]; ok {
		return s
	}
	c.sizes[n] = maxAliasExpansion + 1 // a node that contains itself
	size := 1
	if n.Kind == yaml.AliasNode {
		size = c.treeSize(n.Alias)
	} else {
		for _, k := range n.Content {
			size += c.treeSize(k)
			if size > maxAliasExpansion {
				size = maxAliasExpansion + 1
				break
			}
		}
	}
	c.sizes[n] = size
	return size
}

func (c *converter) value(n *yaml.Node, depth int) (any, error) {
	if n == nil {
		return nil, nil
	}
	c.budget--
	if depth > maxDepth || c.budget < 0 {
		return nil, errAt(n, "YAML nesting too deep (alias expansion?)")
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.value(n.Content[0], depth+1)
	case yaml.AliasNode:
		c.expanded += c.treeSize(n.Alias)
		if c.expanded > maxAliasExpansion {
			return nil, errAt(n, "YAML aliases expand to more than %d values (at alias *%s): refused as a \"billion laughs\" document", maxAliasExpansion, n.Value)
		}
		if v, ok := c.anchors[n.Alias]; ok {
			return v, nil
		}
		v, err := c.value(n.Alias, depth+1)
		if err == nil {
			c.anchors[n.Alias] = v
		}
		return v, err
	case yaml.ScalarNode:
		if n.Tag == "!vault" {
			return c.vaulted(n)
		}
		return scalarNode(n)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, item := range n.Content {
			v, err := c.value(item, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		if n.Tag == "!unsafe" {
			out = unsafeShallow(out).([]any)
		}
		c.share(n, out)
		return out, nil
	case yaml.MappingNode:
		m, err := c.mapping(n, depth)
		if err == nil && n.Tag == "!unsafe" {
			m = unsafeShallow(m).(map[string]any)
		}
		if err == nil {
			c.share(n, m)
		}
		return m, err
	}
	return nil, errAt(n, "unsupported YAML node kind %d", n.Kind)
}

// share records the value of an anchored node, so that its aliases yield
// it without converting (and counting) the anchor's content again.
func (c *converter) share(n *yaml.Node, v any) {
	if n.Anchor != "" {
		c.anchors[n] = v
	}
}

func (c *converter) mapping(n *yaml.Node, depth int) (map[string]any, error) {
	type pair struct {
		key string
		val any
	}
	own := make([]pair, 0, len(n.Content)/2)
	var merged []map[string]any
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			ms, err := c.mergeSources(v, depth)
			if err != nil {
				return nil, err
			}
			merged = append(merged, ms...)
			continue
		}
		key, err := Key(k)
		if err != nil {
			return nil, err
		}
		val, err := c.value(v, depth+1)
		if err != nil {
			return nil, err
		}
		own = append(own, pair{key, val})
	}
	// As PyYAML flattens merges: the merged pairs come first, the last merge
	// source's before the first's, then the mapping's own; a key keeps the
	// place it first had and the value it had last, so explicit keys win over
	// merged ones and earlier merge sources over later.
	b := pydict.NewBuilder(len(own))
	for i := len(merged) - 1; i >= 0; i-- {
		for _, k := range pydict.Keys(merged[i]) {
			b.Set(k, merged[i][k])
		}
	}
	for _, p := range own {
		b.Set(p.key, p.val)
	}
	return b.Map(), nil
}

// mergeSources converts the value of a merge key: a mapping or a list of
// mappings, directly or through an alias. It is converted as any value is,
// so that an alias's conversion is shared and its expansion counted: a
// chain of anchors each merging the one before costs one copy of each,
// not one per link.
func (c *converter) mergeSources(v *yaml.Node, depth int) ([]map[string]any, error) {
	target := v
	if target.Kind == yaml.AliasNode {
		target = target.Alias
	}
	if target.Kind != yaml.MappingNode && target.Kind != yaml.SequenceNode {
		return nil, errAt(v, "merge key << needs a mapping or a list of mappings")
	}
	x, err := c.value(v, depth+1)
	if err != nil {
		return nil, err
	}
	if m, ok := x.(map[string]any); ok {
		return []map[string]any{m}, nil
	}
	items, _ := x.([]any)
	out := make([]map[string]any, 0, len(items))
	for i, item := range items {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, errAt(target.Content[i], "merge key << needs a mapping or a list of mappings")
		}
		out = append(out, m)
	}
	return out, nil
}

// Key converts a mapping key node to the string Ansible would use for it.
// Scalars print as Python's str() prints them (`yes:` is the key "True");
// a collection key is an error.
func Key(k *yaml.Node) (string, error) {
	if k.Kind == yaml.AliasNode {
		k = k.Alias
	}
	if k.Kind != yaml.ScalarNode {
		return "", errAt(k, "a mapping key must be a scalar")
	}
	v, err := scalarNode(k)
	if err != nil {
		return "", err
	}
	switch x := v.(type) {
	case string:
		return x, nil
	case Unsafe:
		return string(x), nil
	case nil:
		return "None", nil
	case bool:
		if x {
			return "True", nil
		}
		return "False", nil
	}
	return fmt.Sprint(v), nil
}

// Copy returns v with its lists and maps copied, all the way down (each
// map keeping its keys' order), so that changing the copy leaves v (a
// value Value returned, or a table's) as it was.
func Copy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = Copy(e)
		}
		return pydict.Like(out, x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Copy(e)
		}
		return out
	}
	return v
}
