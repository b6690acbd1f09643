package shared

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/playbooks/expr"
)

// Python's view of the values the argument-spec validator works on.
//
// ansible-core names a value's type in its messages ("argument 'x' is of
// type <class '...'>"), and the name depends on where a string came from:
// strings read from YAML (the spec's defaults, role parameters, task
// arguments, variables) are AnsibleUnicode, strings Python made while
// converting (splitting "a,b" into a list, parsing "k=v" or JSON, str() of
// a number) are plain str. A Go string cannot carry that, so while it
// validates, the validator keeps the strings it made as pyStr and names
// every other string AnsibleUnicode; plainValue turns pyStr back into
// string before anything leaves it.

// PyStr is a string the validator made: Python's plain str.
type PyStr string

// ansibleUnicode is the type ansible-core gives strings read from YAML.
const ansibleUnicode = "ansible.parsing.yaml.objects.AnsibleUnicode"

// ArgSpecMaxValueDepth bounds how deep provided values may nest: copying,
// printing and comparing them recurse.
const ArgSpecMaxValueDepth = 256

// PyClass is the name of v's Python class (int, str, AnsibleUnicode, ...).
func PyClass(v any) string {
	switch v.(type) {
	case PyStr:
		return "str"
	case string:
		return "AnsibleUnicode"
	}
	if name := pyfmt.TypeName(v); name != "object" {
		return name
	}
	return fmt.Sprintf("%T", v)
}

// PyTypeOf is Python's str(type(v)): "<class 'int'>".
func PyTypeOf(v any) string {
	if _, ok := v.(string); ok {
		return "<class '" + ansibleUnicode + "'>"
	}
	return "<class '" + PyClass(v) + "'>"
}

// IsPyStr reports whether v is a Python string of either origin.
func IsPyStr(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case PyStr:
		return string(x), true
	}
	return "", false
}

// PyToStr is Python's str(v).
func PyToStr(v any) string {
	if s, ok := IsPyStr(v); ok {
		return s
	}
	return pyfmt.Repr(v)
}

// PyRepr is Python's repr(v). A mapping's keys come in the order recorded
// for it (see pydict.Keys), else sorted.
func PyRepr(v any) string { return pyfmt.Repr(v) }

// SortedMapKeys returns m's keys in sorted order.
func SortedMapKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

// PyEqual is Python's ==: 1 == 1.0 == True, str == AnsibleUnicode, lists
// and dicts compared deeply.
func PyEqual(a, b any) bool { return expr.Equal(PlainValue(a), PlainValue(b)) }

// PyIn is Python's `v in list`.
func PyIn(v any, list []any) bool {
	for _, e := range list {
		if PyEqual(v, e) {
			return true
		}
	}
	return false
}

// PyTruthy is Python's bool(v).
func PyTruthy(v any) bool {
	if s, ok := v.(PyStr); ok {
		return s != ""
	}
	return expr.Truthy(v)
}

// PyIter is what Python's `for x in v` walks: a list's items, a string's
// characters, a dict's keys (sorted here). Anything else is not iterable,
// with Python's message.
func PyIter(v any) ([]any, error) {
	switch x := v.(type) {
	case []any:
		return x, nil
	case map[string]any:
		out := make([]any, 0, len(x))
		for _, k := range SortedMapKeys(x) {
			out = append(out, k)
		}
		return out, nil
	}
	if s, ok := IsPyStr(v); ok {
		out := make([]any, 0, len(s))
		for _, r := range s {
			out = append(out, PyStr(string(r)))
		}
		return out, nil
	}
	return nil, fmt.Errorf("'%s' object is not iterable", PyClass(v))
}

// PyJoin is Python's sep.join(items): every item must be a string.
func PyJoin(sep string, items []any) (string, error) {
	parts := make([]string, len(items))
	for i, it := range items {
		s, ok := IsPyStr(it)
		if !ok {
			return "", fmt.Errorf("sequence item %d: expected str instance, %s found", i, PyClass(it))
		}
		parts[i] = s
	}
	return strings.Join(parts, sep), nil
}

// PyStrJoin joins items as Python's sep.join(str(i) for i in items).
func PyStrJoin(sep string, items []any) string {
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = PyToStr(it)
	}
	return strings.Join(parts, sep)
}

// CopyValue deep-copies a provided value into the validator's working
// form: integers of every Go size become int, containers are copied so
// the caller's values are never changed. Values nested deeper than
// argSpecMaxValueDepth are refused.
func CopyValue(v any, depth int) (any, error) {
	if depth > ArgSpecMaxValueDepth {
		return nil, fmt.Errorf("provided values nest deeper than %d levels: tender refuses them", ArgSpecMaxValueDepth)
	}
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			c, err := CopyValue(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			c, err := CopyValue(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	case int64:
		return int(x), nil
	case int32:
		return int(x), nil
	case uint64:
		return int(x), nil
	case uint:
		return int(x), nil
	case float32:
		return float64(x), nil
	}
	return v, nil
}

// PlainValue returns v with every pyStr made a plain string again.
func PlainValue(v any) any {
	switch x := v.(type) {
	case PyStr:
		return string(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = PlainValue(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = PlainValue(e)
		}
		return out
	}
	return v
}
