package inventory

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// stringBody reads one quoted Python string literal (p.s[p.i] is its
// opening quote) and appends its value to sb. raw keeps backslashes; bytes
// refuses non-ASCII characters and \u escapes, as Python does.
func (p *pyParser) stringBody(sb *strings.Builder, raw, bytes bool) error {
	q := p.s[p.i : p.i+1]
	if strings.HasPrefix(p.s[p.i:], q+q+q) {
		q += q + q
	}
	p.i += len(q)
	for {
		if p.i >= len(p.s) {
			return errNotLiteral
		}
		if strings.HasPrefix(p.s[p.i:], q) {
			p.i += len(q)
			return nil
		}
		c := p.s[p.i]
		if c == '\n' && len(q) == 1 {
			return errNotLiteral
		}
		if bytes && c >= 0x80 {
			return errNotLiteral
		}
		if c != '\\' {
			sb.WriteByte(c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.s) {
			return errNotLiteral
		}
		if raw {
			// A backslash never ends a raw string; both characters stay.
			sb.WriteString(p.s[p.i : p.i+2])
			p.i += 2
			continue
		}
		if err := p.escape(sb, bytes); err != nil {
			return err
		}
	}
}

var simpleEscapes = map[byte]string{
	'\\': "\\", '\'': "'", '"': "\"", 'a': "\a", 'b': "\b", 'f': "\f",
	'n': "\n", 'r': "\r", 't': "\t", 'v': "\v", '\n': "",
}

// escape decodes the escape sequence at p.s[p.i] (a backslash).
func (p *pyParser) escape(sb *strings.Builder, bytes bool) error {
	c := p.s[p.i+1]
	if s, ok := simpleEscapes[c]; ok {
		sb.WriteString(s)
		p.i += 2
		return nil
	}
	switch {
	case c >= '0' && c <= '7':
		j := p.i + 1
		for j < len(p.s) && j < p.i+4 && p.s[j] >= '0' && p.s[j] <= '7' {
			j++
		}
		n, _ := strconv.ParseUint(p.s[p.i+1:j], 8, 32)
		p.i = j
		return writeCode(sb, rune(n), bytes)
	case c == 'x':
		return p.hexEscape(sb, 2, bytes)
	case (c == 'u' || c == 'U') && !bytes:
		return p.hexEscape(sb, map[byte]int{'u': 4, 'U': 8}[c], bytes)
	case c == 'N' && !bytes:
		return errNotLiteral // \N{NAME}: see iniValue
	}
	// An unknown escape keeps its backslash.
	sb.WriteByte('\\')
	p.i++
	return nil
}

func (p *pyParser) hexEscape(sb *strings.Builder, n int, bytes bool) error {
	start := p.i + 2
	if start+n > len(p.s) {
		return errNotLiteral
	}
	v, err := strconv.ParseUint(p.s[start:start+n], 16, 32)
	if err != nil || strings.ContainsAny(p.s[start:start+n], "+-_") || v > utf8.MaxRune {
		return errNotLiteral
	}
	p.i = start + n
	return writeCode(sb, rune(v), bytes)
}

// writeCode appends code point r (a byte value in a bytes literal).
func writeCode(sb *strings.Builder, r rune, bytes bool) error {
	if bytes {
		if r > 0xff {
			return errNotLiteral
		}
		sb.WriteByte(byte(r))
		return nil
	}
	sb.WriteRune(r)
	return nil
}
