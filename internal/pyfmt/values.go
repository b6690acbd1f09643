package pyfmt

import (
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
)

// Repr is Python's repr() of a plain value (nil, bool, int, *big.Int,
// float64, a string or a type whose kind is string, []any,
// map[string]any), a dict's keys in their order (pydict.Keys).
func Repr(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case int:
		return strconv.Itoa(x)
	case *big.Int:
		return x.String()
	case float64:
		return Float(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = Repr(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		parts := make([]string, 0, len(x))
		for _, k := range pydict.Keys(x) {
			parts = append(parts, Quote(k)+": "+Repr(x[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	if s, ok := text(v); ok {
		return Quote(s)
	}
	return fmt.Sprint(v)
}

// Str is Python's str() of a plain value: a string as it is, anything else
// as Repr.
func Str(v any) string {
	if s, ok := text(v); ok {
		return s
	}
	return Repr(v)
}

// TypeName is the name of a plain value's Python type: NoneType, bool,
// int, float, str, list, dict ("object" for anything else).
func TypeName(v any) string {
	switch v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case int, *big.Int:
		return "int"
	case float64:
		return "float"
	case []any:
		return "list"
	case map[string]any:
		return "dict"
	}
	if _, ok := text(v); ok {
		return "str"
	}
	return "object"
}

// text returns v as a string when its kind is string (string, or a named
// string type such as yaml11.Unsafe).
func text(v any) (string, bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.String {
		return rv.String(), true
	}
	return "", false
}
