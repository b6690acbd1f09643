package inventory

import (
	"strings"

	"github.com/tender-sh/tender/internal/pyescape"
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

// escape decodes the escape sequence at p.s[p.i] (a backslash): Python's
// (pyescape.Decode), a backslash before a newline continuing the line, and
// no \u, \U or \N in a bytes literal.
func (p *pyParser) escape(sb *strings.Builder, bytes bool) error {
	c := p.s[p.i+1]
	if c == '\n' {
		p.i += 2
		return nil
	}
	if c == 'N' && !bytes {
		return errNotLiteral // \N{NAME}: see iniValue
	}
	r, n, kind, problem := pyescape.Decode(p.s[p.i+1:])
	if kind == pyescape.Hex && c != 'x' && bytes {
		n, problem = 0, ""
	}
	if problem != "" {
		return errNotLiteral
	}
	if n == 0 {
		// An unknown escape keeps its backslash.
		sb.WriteByte('\\')
		p.i++
		return nil
	}
	p.i += 1 + n
	return writeCode(sb, r, bytes)
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
