package config

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/boolean"
	"github.com/tender-sh/tender/internal/pyfmt"
)

// errValue is Python's ValueError out of a conversion: Ansible reports it
// as an invalid value (or, for an empty environment variable, falls back
// to the default). Other conversion errors are Python's TypeError.
type errValue struct{ msg string }

func (e *errValue) Error() string { return e.msg }

// errRefused is a type tender cannot produce.
var errRefused = errors.New("refused")

// ensureType converts v to the setting's type as Ansible's ensure_type
// does; base is the directory relative paths are resolved against.
func (c *Config) ensureType(v any, typ, base string) (any, error) {
	if v == nil {
		return nil, nil
	}
	invalid := func(what string) error {
		return &errValue{fmt.Sprintf("Invalid type provided for \"%s\": %s", what, pyfmt.Str(v))}
	}
	switch strings.ToLower(typ) {
	case "boolean", "bool":
		return toBool(v)
	case "integer", "int":
		return toInt(v)
	case "float":
		return toFloat(v)
	case "list":
		switch t := v.(type) {
		case string:
			parts := strings.Split(t, ",")
			out := make([]any, len(parts))
			for i, p := range parts {
				out[i] = unquote(strings.TrimFunc(p, pyfmt.IsSpace))
			}
			return out, nil
		case []any:
			return t, nil
		}
		return nil, invalid("list")
	case "none":
		if v == "None" {
			return nil, nil
		}
		return nil, invalid("None")
	case "path":
		if s, ok := v.(string); ok {
			return c.resolvePath(s, base), nil
		}
		return nil, invalid("path")
	case "tmp", "temppath", "tmppath":
		return nil, errRefused
	case "pathspec", "pathlist":
		var parts []any
		switch t := v.(type) {
		case string:
			sep := ":"
			if strings.ToLower(typ) == "pathlist" {
				sep = ","
			}
			for _, p := range strings.Split(t, sep) {
				if sep == "," {
					p = strings.TrimFunc(p, pyfmt.IsSpace)
				}
				parts = append(parts, p)
			}
		case []any:
			parts = t
		default:
			return nil, invalid(strings.ToLower(typ))
		}
		out := make([]any, len(parts))
		for i, p := range parts {
			s, ok := p.(string)
			if !ok {
				return nil, fmt.Errorf("argument of type '%s' is not iterable", pyfmt.TypeName(p))
			}
			out[i] = c.resolvePath(s, base)
		}
		return out, nil
	case "dict", "dictionary":
		if _, ok := v.(map[string]any); ok {
			return v, nil
		}
		return nil, invalid("dictionary")
	case "str", "string":
		switch v.(type) {
		case string, bool, int, float64:
			return unquote(pyfmt.Str(v)), nil
		}
		return nil, invalid("string")
	}
	if s, ok := v.(string); ok {
		return unquote(s), nil
	}
	return v, nil
}

// toBool is Ansible's boolean(v, strict=False): true for the words and
// numbers it takes as true, false for anything else.
func toBool(v any) (any, error) {
	switch t := v.(type) {
	case bool:
		return t, nil
	case string:
		return boolean.True(t), nil
	case int:
		return t == 1, nil
	case float64:
		return t == 1, nil
	case []any, map[string]any:
		return nil, fmt.Errorf("unhashable type: '%s'", pyfmt.TypeName(v))
	}
	return false, nil
}

// toInt is Python's int(v).
func toInt(v any) (any, error) {
	switch t := v.(type) {
	case bool:
		if t {
			return 1, nil
		}
		return 0, nil
	case int:
		return t, nil
	case *big.Int:
		return nil, &errValue{fmt.Sprintf("%s is out of tender's integer range", t)}
	case float64:
		if math.IsInf(t, 0) {
			return nil, fmt.Errorf("cannot convert float infinity to integer")
		}
		if math.IsNaN(t) {
			return nil, &errValue{"cannot convert float NaN to integer"}
		}
		if t >= math.MaxInt64 || t <= math.MinInt64 {
			return nil, &errValue{fmt.Sprintf("%s is out of tender's integer range", pyfmt.Float(t))}
		}
		return int(t), nil
	case string:
		s := strings.TrimFunc(t, pyfmt.IsSpace)
		if pyDigits(strings.TrimLeft(s, "+-"), false) && strings.IndexAny(s[1:], "+-") < 0 {
			if n, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 10, 64); err == nil {
				return int(n), nil
			}
			return nil, &errValue{fmt.Sprintf("%s is out of tender's integer range", pyfmt.Quote(t))}
		}
		return nil, &errValue{fmt.Sprintf("invalid literal for int() with base 10: %s", pyfmt.Quote(t))}
	}
	return nil, fmt.Errorf("int() argument must be a string, a bytes-like object or a real number, not '%s'", pyfmt.TypeName(v))
}

// pyDigits reports whether s is decimal digits with single underscores
// between them, as Python's int() and float() take them.
func pyDigits(s string, allowEmpty bool) bool {
	if s == "" {
		return allowEmpty
	}
	if s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return false
	}
	return strings.Trim(s, "0123456789_") == ""
}

// toFloat is Python's float(v).
func toFloat(v any) (any, error) {
	switch t := v.(type) {
	case bool:
		if t {
			return 1.0, nil
		}
		return 0.0, nil
	case int:
		return float64(t), nil
	case *big.Int:
		if f, _ := new(big.Float).SetInt(t).Float64(); !math.IsInf(f, 0) {
			return f, nil
		}
		return nil, fmt.Errorf("int too large to convert to float")
	case float64:
		return t, nil
	case string:
		if f, ok := parsePyFloat(strings.TrimFunc(t, pyfmt.IsSpace)); ok {
			return f, nil
		}
		return nil, &errValue{fmt.Sprintf("could not convert string to float: %s", pyfmt.Quote(t))}
	}
	return nil, fmt.Errorf("float() argument must be a string or a real number, not '%s'", pyfmt.TypeName(v))
}

// parsePyFloat reads a float literal as Python's float() does: an
// optional sign, then digits (underscores between them) with an optional
// fraction and exponent, or inf, infinity, nan in any case.
func parsePyFloat(s string) (float64, bool) {
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 {
		return 0, false
	}
	switch strings.ToLower(body) {
	case "inf", "infinity", "nan":
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(body), "e")
	intPart, frac, hasDot := strings.Cut(mant, ".")
	if !pyDigits(intPart, hasDot) || !pyDigits(frac, true) || (intPart == "" && frac == "") {
		return 0, false
	}
	if hasExp && !pyDigits(strings.TrimLeft(exp, "+-"), false) || hasExp && len(exp)-len(strings.TrimLeft(exp, "+-")) > 1 {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return f, true
}

// unquote drops one pair of matching quotes around s, as Ansible's
// unquote does (not when the closing quote is escaped).
func unquote(s string) string {
	if len(s) > 1 && s[0] == s[len(s)-1] && (s[0] == '"' || s[0] == '\'') && s[len(s)-2] != '\\' {
		return s[1 : len(s)-1]
	}
	return s
}
