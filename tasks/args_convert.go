package tasks

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/yaml11"
)

// convert turns v into kind k (and each element into elem for lists).
func convert(k Kind, elem Kind, v any) (any, error) {
	switch k {
	case Str, Path:
		// As Ansible's check_type_str, which modules call allowing the
		// conversion: a list or a dict becomes its Python text.
		switch v.(type) {
		case []any, []string, map[string]any:
			return pyfmt.Repr(v), nil
		}
		return ToText(v), nil
	case Bool:
		return ParseBool(v)
	case Int:
		return toInt(v)
	case Float:
		switch x := v.(type) {
		case float64:
			return x, nil
		case int:
			return float64(x), nil
		case int64:
			return float64(x), nil
		case *big.Int:
			// Python's float(): exact to the nearest float, or too large
			if f, _ := new(big.Float).SetInt(x).Float64(); !math.IsInf(f, 0) {
				return f, nil
			}
			return nil, fmt.Errorf("int too large to convert to float")
		case string:
			f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
			if err != nil {
				return nil, fmt.Errorf("%s cannot be converted to a float", pyType(v))
			}
			return f, nil
		}
		return nil, fmt.Errorf("%s cannot be converted to a float", pyType(v))
	case List:
		var l []any
		switch x := v.(type) {
		case []any:
			l = x
		case []string:
			for _, s := range x {
				l = append(l, s)
			}
		case string:
			for _, s := range strings.Split(x, ",") {
				l = append(l, s)
			}
		case yaml11.Unsafe: // a Marked list's pieces stay marked
			for _, s := range strings.Split(string(x), ",") {
				l = append(l, yaml11.Unsafe(s))
			}
		case int, int64, float64, *big.Int:
			l = []any{ToText(x)}
		default:
			return nil, fmt.Errorf("%s cannot be converted to a list", pyType(v))
		}
		if elem == Raw {
			return l, nil
		}
		out := make([]any, len(l))
		for i, e := range l {
			ce, err := convert(elem, Str, e)
			if err != nil {
				return nil, elemError{pyType(e), elem, err}
			}
			out[i] = ce
		}
		return out, nil
	case Dict:
		switch x := v.(type) {
		case map[string]any:
			return x, nil
		case string:
			return parseDictString(x)
		}
		return nil, fmt.Errorf("%s cannot be converted to a dict", pyType(v))
	}
	return v, nil
}

// elemError is a list element that does not convert to the list's
// element kind.
type elemError struct {
	typ  string
	kind Kind
	err  error
}

func (e elemError) Error() string { return e.err.Error() }

// toInt converts an Int parameter. Python's ints have no size, tender's
// modules take Go's: a larger integer (a *big.Int from an expression, a
// float or a string beyond 64 bits) is refused as out of range.
func toInt(v any) (int, error) {
	switch x := v.(type) {
	case int:
		return x, nil
	case int64:
		return int(x), nil
	case *big.Int:
		return 0, fmt.Errorf("%s is out of range for an integer parameter", x)
	case float64:
		if x == math.Trunc(x) {
			if x < -(1<<63) || x >= 1<<63 {
				return 0, fmt.Errorf("%s is out of range for an integer parameter", ToText(x))
			}
			return int(x), nil
		}
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(x))
		if err == nil {
			return n, nil
		}
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s is out of range for an integer parameter", strings.TrimSpace(x))
		}
	}
	return 0, fmt.Errorf("%s cannot be converted to an int", pyType(v))
}

// parseDictString parses a JSON object or Ansible's "k=v, k2='v 2'" form.
func parseDictString(s string) (map[string]any, error) {
	if strings.HasPrefix(s, "{") {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			return nil, errors.New("unable to evaluate string as dictionary")
		}
		return m, nil
	}
	if !strings.Contains(s, "=") {
		return nil, errors.New("dictionary requested, could not parse JSON or key=value")
	}
	fields := SplitDictFields(s)
	m := map[string]any{}
	for _, f := range fields {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return nil, errors.New("dictionary requested, could not parse JSON or key=value")
		}
		m[k] = v
	}
	return m, nil
}

// Has reports whether the parameter was given or has a default.
func (v Values) Has(name string) bool { _, ok := v[name]; return ok }

// Str returns a Str or Path parameter, "" when absent.
func (v Values) Str(name string) string {
	s, _ := v[name].(string)
	return s
}

// Bool returns a Bool parameter, false when absent.
func (v Values) Bool(name string) bool {
	b, _ := v[name].(bool)
	return b
}

// Int returns an Int parameter, 0 when absent.
func (v Values) Int(name string) int {
	n, _ := v[name].(int)
	return n
}

// Float returns a Float parameter, 0 when absent.
func (v Values) Float(name string) float64 {
	f, _ := v[name].(float64)
	return f
}

// List returns a List parameter's elements, nil when absent.
func (v Values) List(name string) []any {
	l, _ := v[name].([]any)
	return l
}

// Strings returns a List parameter whose elements are strings.
func (v Values) Strings(name string) []string {
	var out []string
	for _, e := range v.List(name) {
		out = append(out, ToText(e))
	}
	return out
}

// Dict returns a Dict parameter, nil when absent.
func (v Values) Dict(name string) map[string]any {
	m, _ := v[name].(map[string]any)
	return m
}

// SplitDictFields splits "k=v k2='v 2', k3=v3" into its key=value fields
// as ansible-core's check_type_dict does: on unquoted commas and spaces,
// quotes dropped, a backslash taking the next character as it is.
func SplitDictFields(s string) []string {
	var fields []string
	var buf strings.Builder
	var quote rune
	escape := false
	for _, c := range strings.TrimSpace(s) {
		switch {
		case escape:
			buf.WriteRune(c)
			escape = false
		case c == '\\':
			escape = true
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == ',' || c == ' '):
			if buf.Len() > 0 {
				fields = append(fields, buf.String())
			}
			buf.Reset()
		default:
			buf.WriteRune(c)
		}
	}
	if buf.Len() > 0 {
		fields = append(fields, buf.String())
	}
	return fields
}
