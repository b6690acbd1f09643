package expr

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tender-sh/tender/internal/pydict"
)

// pyJSONLoads is Python's json.loads (what from_json runs): objects keep
// their keys in the order written (a repeated key its first place and last
// value), integers any size, NaN, Infinity and -Infinity accepted, and
// a document that does not parse refused with json's JSONDecodeError (a
// ValueError) in the words of its C scanner and at its position:
// "Expecting value: line 1 column 1 (char 0)".
// strict false lets strings hold control characters.
func pyJSONLoads(s string, strict bool) (any, error) {
	d := &jsonDecoder{s: s, strict: strict}
	v, err := d.value(d.skip(0), 0)
	if err != nil {
		return nil, err
	}
	if end := d.skip(d.pos); end != len(s) {
		return nil, d.fail("Extra data", end)
	}
	return v, nil
}

type jsonDecoder struct {
	s      string
	pos    int // where the last value ended
	strict bool
}

// fail is JSONDecodeError(msg, s, at): its position in characters, as
// Python counts them, with the line and column.
func (d *jsonDecoder) fail(msg string, at int) error {
	before := d.s[:at]
	line := strings.Count(before, "\n") + 1
	col := utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]) + 1
	return valueErrorf("%s: line %d column %d (char %d)", msg, line, col, utf8.RuneCountInString(before))
}

// skip returns the first offset from i that is not JSON whitespace.
func (d *jsonDecoder) skip(i int) int {
	for i < len(d.s) && strings.IndexByte(" \t\n\r", d.s[i]) >= 0 {
		i++
	}
	return i
}

func (d *jsonDecoder) value(i, depth int) (any, error) {
	if depth > maxNesting {
		return nil, valueErrorf("from_json: document nested more than %d deep", maxNesting)
	}
	rest := d.s[i:]
	for _, lit := range []struct {
		text string
		v    any
	}{{"null", nil}, {"true", true}, {"false", false}, {"NaN", math.NaN()}, {"Infinity", math.Inf(1)}, {"-Infinity", math.Inf(-1)}} {
		if strings.HasPrefix(rest, lit.text) {
			d.pos = i + len(lit.text)
			return lit.v, nil
		}
	}
	if rest == "" {
		return nil, d.fail("Expecting value", i)
	}
	switch c := rest[0]; {
	case c == '"':
		return d.str(i + 1)
	case c == '{':
		return d.object(i+1, depth)
	case c == '[':
		return d.array(i+1, depth)
	case c == '-' || c >= '0' && c <= '9':
		if n := jsonNumberLen(rest); n > 0 {
			d.pos = i + n
			return jsonNumber(rest[:n])
		}
	}
	return nil, d.fail("Expecting value", i)
}

// jsonNumberLen is the length of Python's NUMBER_RE match at the start
// of s: -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?, or 0.
func jsonNumberLen(s string) int {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func(from int) int {
		for from < len(s) && s[from] >= '0' && s[from] <= '9' {
			from++
		}
		return from
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(i)
	default:
		return 0
	}
	if i+1 < len(s) && s[i] == '.' && s[i+1] >= '0' && s[i+1] <= '9' {
		i = digits(i + 1)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if k := digits(j); k > j {
			i = k
		}
	}
	return i
}

func (d *jsonDecoder) array(i, depth int) (any, error) {
	out := []any{}
	i = d.skip(i)
	if i < len(d.s) && d.s[i] == ']' {
		d.pos = i + 1
		return out, nil
	}
	for {
		v, err := d.value(i, depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		i = d.skip(d.pos)
		switch {
		case i < len(d.s) && d.s[i] == ']':
			d.pos = i + 1
			return out, nil
		case i < len(d.s) && d.s[i] == ',':
			i = d.skip(i + 1)
		default:
			return nil, d.fail("Expecting ',' delimiter", i)
		}
	}
}

func (d *jsonDecoder) object(i, depth int) (any, error) {
	b := pydict.NewBuilder(0)
	i = d.skip(i)
	if i < len(d.s) && d.s[i] == '}' {
		d.pos = i + 1
		return b.Map(), nil
	}
	for {
		if i >= len(d.s) || d.s[i] != '"' {
			return nil, d.fail("Expecting property name enclosed in double quotes", i)
		}
		k, err := d.str(i + 1)
		if err != nil {
			return nil, err
		}
		i = d.skip(d.pos)
		if i >= len(d.s) || d.s[i] != ':' {
			return nil, d.fail("Expecting ':' delimiter", i)
		}
		v, err := d.value(d.skip(i+1), depth+1)
		if err != nil {
			return nil, err
		}
		key := k.(string)
		if b.Has(key) {
			b.Delete(key) // Python's dict: the first place, the last value
		}
		b.Set(key, v)
		i = d.skip(d.pos)
		switch {
		case i < len(d.s) && d.s[i] == '}':
			d.pos = i + 1
			return b.Map(), nil
		case i < len(d.s) && d.s[i] == ',':
			i = d.skip(i + 1)
		default:
			return nil, d.fail("Expecting ',' delimiter", i)
		}
	}
}

// str reads a string whose opening quote is at i-1, as Python's strict
// scanstring: no control character inside, only JSON's escapes.
func (d *jsonDecoder) str(i int) (any, error) {
	begin := i - 1
	var b strings.Builder
	for {
		j := i
		for j < len(d.s) && d.s[j] != '"' && d.s[j] != '\\' && (d.s[j] >= 0x20 || !d.strict) {
			j++
		}
		b.WriteString(d.s[i:j])
		if j >= len(d.s) {
			return nil, d.fail("Unterminated string starting at", begin)
		}
		switch c := d.s[j]; {
		case c == '"':
			d.pos = j + 1
			return b.String(), nil
		case c < 0x20:
			return nil, d.fail("Invalid control character at", j)
		}
		if j+1 >= len(d.s) {
			return nil, d.fail("Unterminated string starting at", begin)
		}
		esc := d.s[j+1]
		if esc != 'u' {
			r, ok := map[byte]string{'"': `"`, '\\': `\`, '/': "/", 'b': "\b", 'f': "\f", 'n': "\n", 'r': "\r", 't': "\t"}[esc]
			if !ok {
				return nil, d.fail("Invalid \\escape", j)
			}
			b.WriteString(r)
			i = j + 2
			continue
		}
		u, ok := d.hex4(j + 1)
		if !ok {
			return nil, d.fail("Invalid \\uXXXX escape", j+1)
		}
		i = j + 6
		if utf16.IsSurrogate(rune(u)) && u < 0xdc00 && strings.HasPrefix(d.s[i:], `\u`) {
			if lo, ok := d.hex4(i + 1); ok && lo >= 0xdc00 && lo <= 0xdfff {
				b.WriteRune(utf16.DecodeRune(rune(u), rune(lo)))
				i += 6
				continue
			}
		}
		b.WriteRune(rune(u)) // a lone surrogate becomes U+FFFD
	}
}

// hex4 reads the four hex digits after the u at i, as Python's
// _decode_uXXXX (which refuses an x in second place, int() would take).
func (d *jsonDecoder) hex4(i int) (int, bool) {
	if i+5 > len(d.s) {
		return 0, false
	}
	h := d.s[i+1 : i+5]
	if h[1] == 'x' || h[1] == 'X' || strings.ContainsAny(h, "+-_ ") {
		return 0, false
	}
	n, err := strconv.ParseUint(h, 16, 32)
	return int(n), err == nil
}
