package yaml11

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// DuplicateKey is a key that a mapping gives more than once. Ansible's
// loader keeps the last value and, by its DUPLICATE_YAML_DICT_KEY
// setting, warns, fails or says nothing.
type DuplicateKey struct {
	// Line and Col are where the mapping starts, as Ansible reports it.
	Line, Col int
	// Key is the key as Python's str() prints it.
	Key string
}

// Message is Ansible's text for the duplicate in the named file.
func (d DuplicateKey) Message(file string) string {
	return fmt.Sprintf("While constructing a mapping from %s, line %d, column %d, found a duplicate dict key (%s). Using last defined value only.", file, d.Line, d.Col, d.Key)
}

// DuplicatePolicy is what a reader does about duplicate keys: Ansible's
// DUPLICATE_YAML_DICT_KEY.
type DuplicatePolicy int

const (
	// DuplicatesWarn warns about each duplicate and keeps the last
	// value (Ansible's default).
	DuplicatesWarn DuplicatePolicy = iota
	// DuplicatesError refuses the file.
	DuplicatesError
	// DuplicatesIgnore keeps the last value and says nothing.
	DuplicatesIgnore
)

// ParseDuplicatePolicy reads a DUPLICATE_YAML_DICT_KEY value: warn,
// error or ignore.
func ParseDuplicatePolicy(s string) (DuplicatePolicy, error) {
	switch s {
	case "warn", "":
		return DuplicatesWarn, nil
	case "error":
		return DuplicatesError, nil
	case "ignore":
		return DuplicatesIgnore, nil
	}
	return 0, fmt.Errorf("invalid duplicate key policy %q: expected warn, error or ignore", s)
}

// maxDuplicateWork bounds the keys DuplicateKeys looks at, so a hostile
// document costs bounded time; past it the rest of the document is not
// checked.
const maxDuplicateWork = 1_000_000

// DuplicateKeys finds the keys that a mapping of the document n gives
// twice, in the order Ansible's loader meets them: mapping by mapping,
// level by level, each key once per mapping (Ansible's display says a
// warning once). Keys are compared as Python compares dict keys (1, 1.0
// and true are one key; "1" is another), and a merge key's pairs count as
// the mapping's own, before them, as PyYAML flattens merges. A JSON
// document is never checked: Ansible reads it as JSON, which keeps the
// last value without a word.
func DuplicateKeys(data []byte, n *yaml.Node) []DuplicateKey {
	if json.Valid(data) {
		return nil
	}
	var out []DuplicateKey
	f := &flattener{memo: map[*yaml.Node][]keyCount{}}
	seen := map[*yaml.Node]bool{}
	queue := []*yaml.Node{n}
	for len(queue) > 0 && f.work < maxDuplicateWork {
		n := queue[0]
		queue = queue[1:]
		if n != nil && n.Kind == yaml.AliasNode {
			n = n.Alias
		}
		if n == nil || seen[n] {
			continue
		}
		seen[n] = true
		switch n.Kind {
		case yaml.DocumentNode, yaml.SequenceNode:
			queue = append(queue, n.Content...)
		case yaml.MappingNode:
			for _, k := range f.keys(n, 0) {
				if k.n > 1 {
					out = append(out, DuplicateKey{Line: n.Line, Col: n.Column, Key: k.name})
				}
			}
			for i := 1; i < len(n.Content); i += 2 {
				queue = append(queue, n.Content[i])
			}
		}
	}
	return out
}

// keyCount is one distinct key of a mapping's flattened pairs and how
// often it is given there (counted up to 2).
type keyCount struct {
	id, name string
	n        int
}

// flattener works out mappings' flattened keys once each: a chain of
// mappings each merging the one before costs one pass per link.
type flattener struct {
	memo map[*yaml.Node][]keyCount
	work int
}

// keys is the distinct keys of n's pairs with its merge keys replaced by
// the pairs they merge (those of the last source first, all before n's
// own), in the order they first come.
func (f *flattener) keys(n *yaml.Node, depth int) []keyCount {
	if ks, ok := f.memo[n]; ok {
		return ks
	}
	f.memo[n] = nil // a mapping that merges itself
	var sources [][]keyCount
	var own []keyCount
	for i := 0; i+1 < len(n.Content) && depth < maxDepth; i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Tag != "!!merge" {
			if id, ok := keyID(k); ok {
				name, _ := Key(k)
				own = append(own, keyCount{id, name, 1})
			}
			continue
		}
		switch src := deref(v); src.Kind {
		case yaml.MappingNode:
			sources = append(sources, f.keys(src, depth+1))
		case yaml.SequenceNode:
			var subs [][]keyCount
			for _, e := range src.Content {
				if e = deref(e); e.Kind == yaml.MappingNode {
					subs = append(subs, f.keys(e, depth+1))
				}
			}
			slices.Reverse(subs)
			sources = append(sources, subs...)
		}
	}
	var out []keyCount
	at := map[string]int{}
	for _, list := range append(sources, own) {
		f.work += len(list)
		for _, k := range list {
			if i, ok := at[k.id]; ok {
				out[i].n = min(out[i].n+k.n, 2)
				continue
			}
			at[k.id] = len(out)
			out = append(out, k)
		}
	}
	f.memo[n] = out
	return out
}

func deref(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

// keyID names a key node's value so that keys Python holds equal name the
// same: numbers (bools among them) by their value, strings by their text.
// A key that is not a scalar has none.
func keyID(k *yaml.Node) (string, bool) {
	k = deref(k)
	if k.Kind != yaml.ScalarNode {
		return "", false
	}
	v, err := scalarNode(k)
	if err != nil {
		return "", false
	}
	switch x := v.(type) {
	case nil:
		return "none", true
	case string:
		return "s:" + x, true
	case Unsafe:
		return "s:" + string(x), true
	case bool:
		if x {
			return "n:1", true
		}
		return "n:0", true
	case int:
		return "n:" + strconv.Itoa(x), true
	case *big.Int:
		return "n:" + x.String(), true
	case float64:
		if math.IsNaN(x) {
			return "", false // NaN equals nothing, not even itself
		}
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			b, _ := big.NewFloat(x).Int(nil)
			return "n:" + b.String(), true
		}
		return "n:" + strconv.FormatFloat(x, 'g', -1, 64), true
	}
	return fmt.Sprintf("%T:%v", v, v), true
}

// CheckDuplicates applies policy p to the duplicate keys of the document
// n read from data: under DuplicatesError the first duplicate is an
// *Error at its mapping; under DuplicatesWarn each is given to warn (nil
// says nothing). name is the file the messages name.
func CheckDuplicates(p DuplicatePolicy, warn func(msg string), data []byte, n *yaml.Node, name string) error {
	if p == DuplicatesIgnore || p == DuplicatesWarn && warn == nil {
		return nil
	}
	for _, dup := range DuplicateKeys(data, n) {
		if p == DuplicatesError {
			return &Error{Line: dup.Line, Col: dup.Col, Msg: dup.Message(name)}
		}
		warn(dup.Message(name))
	}
	return nil
}
