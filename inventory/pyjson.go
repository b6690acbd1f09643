package inventory

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/tender-sh/tender/internal/yaml11"
)

// JSON encodes v exactly as ansible-inventory prints its output (Python's
// json.dumps with sort_keys=True, indent=4, ensure_ascii=False): keys
// sorted, four-space indent, floats as Python writes them (1000.0, 1e-05),
// `!unsafe` strings as {"__ansible_unsafe": "..."}. It accepts the values
// this package produces: nil, bool, int, float64, string, yaml11.Unsafe,
// []any, []string and map[string]any.
func JSON(v any) ([]byte, error) {
	var b strings.Builder
	if err := writeJSON(&b, v, 0); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

func writeJSON(b *strings.Builder, v any, depth int) error {
	nl := "\n" + strings.Repeat("    ", depth+1)
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case float64:
		switch {
		case math.IsInf(x, 1):
			b.WriteString("Infinity")
		case math.IsInf(x, -1):
			b.WriteString("-Infinity")
		case math.IsNaN(x):
			b.WriteString("NaN")
		default:
			b.WriteString(pyFloat(x))
		}
	case string:
		writeJSONString(b, x)
	case yaml11.Unsafe:
		return writeJSON(b, map[string]any{"__ansible_unsafe": string(x)}, depth)
	case []string:
		l := make([]any, len(x))
		for i, s := range x {
			l[i] = s
		}
		return writeJSON(b, l, depth)
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteString("[")
		for i, e := range x {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(nl)
			if err := writeJSON(b, e, depth+1); err != nil {
				return err
			}
		}
		b.WriteString("\n" + strings.Repeat("    ", depth) + "]")
	case map[string]any:
		if len(x) == 0 {
			b.WriteString("{}")
			return nil
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(nl)
			writeJSONString(b, k)
			b.WriteString(": ")
			if err := writeJSON(b, x[k], depth+1); err != nil {
				return err
			}
		}
		b.WriteString("\n" + strings.Repeat("    ", depth) + "}")
	default:
		return fmt.Errorf("inventory: cannot encode %T as JSON", v)
	}
	return nil
}

func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// pyFloat formats f as Python's repr(float): the shortest digits that
// round-trip, scientific below 1e-4 and from 1e16 on, and always a ".0"
// or exponent so it reads back as a float.
func pyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, expS, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expS)
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	digits := strings.Replace(mant, ".", "", 1)
	sign := ""
	if neg {
		sign = "-"
	}
	if exp < -4 || exp >= 16 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		es := "+"
		if exp < 0 {
			es, exp = "-", -exp
		}
		return fmt.Sprintf("%s%se%s%02d", sign, m, es, exp)
	}
	if exp < 0 {
		return sign + "0." + strings.Repeat("0", -exp-1) + digits
	}
	if len(digits) <= exp+1 {
		return sign + digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
	}
	return sign + digits[:exp+1] + "." + digits[exp+1:]
}

// pyStr formats a value as Python's str() does (how --graph --vars prints
// values). Dict keys are sorted, where Python keeps insertion order.
func pyStr(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case yaml11.Unsafe:
		return string(x)
	}
	return pyRepr(v)
}

// pyRepr formats a value as Python's repr() does.
func pyRepr(v any) string {
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
	case float64:
		return pyFloat(x)
	case string:
		return pyQuote(x)
	case yaml11.Unsafe:
		return pyQuote(string(x))
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = pyRepr(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = pyQuote(k) + ": " + pyRepr(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

// pyQuote is Python's repr of a str.
func pyQuote(s string) string {
	q := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x80 || unicode.IsPrint(r):
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// toInt converts a value as Python's int() does for ansible_group_priority.
func toInt(v any) (int, error) {
	switch x := v.(type) {
	case int:
		return x, nil
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return 0, fmt.Errorf("cannot convert float %s to integer", pyFloat(x))
		}
		return int(x), nil
	case string, yaml11.Unsafe:
		s := strings.TrimFunc(fmt.Sprint(x), pyIsSpace)
		clean := s
		if !strings.HasPrefix(s, "_") && !strings.HasSuffix(s, "_") && !strings.Contains(s, "__") {
			clean = strings.ReplaceAll(s, "_", "")
		}
		n, err := strconv.Atoi(clean)
		if err != nil {
			return 0, fmt.Errorf("invalid literal for int() with base 10: %s", pyQuote(fmt.Sprint(x)))
		}
		return n, nil
	}
	return 0, fmt.Errorf("int() argument must be a string, a bytes-like object or a real number, not '%s'", pyTypeName(v))
}
