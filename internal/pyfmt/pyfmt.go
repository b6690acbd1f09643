// Package pyfmt prints values the way Python prints them, where tender must
// match Ansible's output exactly: repr() of floats and strings, and the
// strings of json.dumps. inventory, playbooks/expr and tasks/builtin all
// need it, so it is one leaf package that imports nothing of tender's.
package pyfmt

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
)

// Float formats f as Python's repr(float): the shortest digits that read
// back as f, exponent form below 1e-4 and from 1e16 on, and always a ".0"
// or an exponent so it reads back as a float.
func Float(f float64) string {
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
	if exp < -4 || exp >= 16 {
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		e := strconv.Itoa(exp)
		if len(e) < 2 {
			e = "0" + e
		}
		return mant + "e" + sign + e
	}
	s = strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// IsSpace reports whether r is whitespace for Python's str.isspace() (and
// the \s of its regular expressions): ASCII whitespace, the separators
// U+001C..U+001F, U+0085, the no-break spaces and the other Unicode spaces.
func IsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x1c, 0x1d, 0x1e, 0x1f, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// Quote is Python's repr() of a str: single quotes unless the string holds
// a single quote and no double one, and escapes for what is not printable.
func Quote(s string) string {
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
			b.WriteString(`\x` + hex(int(r), 2))
		case r < 0x80 || unicode.IsPrint(r):
			b.WriteRune(r)
		case r <= 0xff:
			b.WriteString(`\x` + hex(int(r), 2))
		case r <= 0xffff:
			b.WriteString(`\u` + hex(int(r), 4))
		default:
			b.WriteString(`\U` + hex(int(r), 8))
		}
	}
	b.WriteByte(q)
	return b.String()
}

// BytesRepr is Python's repr() of s as bytes: b'...' (b"..." when it
// holds a single quote and no double one), with \t, \n, \r, \\ and \xHH
// escapes for every byte that is not printable ASCII.
func BytesRepr(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	var b strings.Builder
	b.WriteString("b")
	b.WriteByte(q)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == q || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < 0x20 || c >= 0x7f:
			b.WriteString(`\x` + hex(int(c), 2))
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// JSONQuote is a string as Python's json.dumps writes it. With ascii
// (json.dumps's default ensure_ascii=True) everything outside printable
// ASCII becomes \uXXXX (a surrogate pair above U+FFFF); without it only
// control characters are escaped.
func JSONQuote(s string, ascii bool) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || (ascii && r > 0x7e && r <= 0xffff):
			b.WriteString(`\u` + hex(int(r), 4))
		case ascii && r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			b.WriteString(`\u` + hex(int(r1), 4) + `\u` + hex(int(r2), 4))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func hex(n, width int) string {
	s := strconv.FormatInt(int64(n), 16)
	for len(s) < width {
		s = "0" + s
	}
	return s
}
