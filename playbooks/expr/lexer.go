package expr

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tender-sh/tender/internal/pyescape"
	"github.com/tender-sh/tender/internal/pyfmt"
)

type tokKind int

const (
	tEOF      tokKind = iota
	tName             // identifiers and keywords (and, or, not, in, is, if, else, …)
	tInt              // integer literal, val holds the int
	tFloat            // float literal
	tString           // string literal, val holds the unescaped text
	tOp               // operators and punctuation
	tVarEnd           // }} (template mode)
	tBlockEnd         // %} (template mode)
)

type token struct {
	kind  tokKind
	text  string // source text (operator or name) or unescaped string value
	num   any    // int, *big.Int or float64 for number tokens
	pos   int    // byte offset in src
	trim  bool   // for tVarEnd/tBlockEnd: the "-}}" form, strip following whitespace
	endAt int    // offset just past the token
}

// lexer turns expression source into tokens. In template mode it stops at a
// "}}" or "%}" that is not inside brackets.
type lexer struct {
	src      string
	pos      int
	depth    int
	template bool
	// raw makes string literals verbatim: no escape is processed and a
	// backslash does not protect a quote. Ansible gets this effect inside
	// {{ }} by doubling every backslash of a string literal before Jinja
	// reads it (so regex_replace('\.', ...) needs one backslash, not two).
	// In {% %} tags and in when: conditions escapes are processed.
	raw bool
	d   *delims // the template's markers (template mode); nil is Jinja's
}

var operators = []string{"//", "**", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "~", "<", ">", "=", "(", ")", "[", "]", "{", "}", ",", ":", ".", "|"}

func (l *lexer) errAt(pos int, format string, args ...any) *Error {
	return &Error{Src: l.src, Col: pos + 1, Msg: errorf(format, args...).Error()}
}

func (l *lexer) next() (token, error) {
	for l.pos < len(l.src) {
		r, n := utf8.DecodeRuneInString(l.src[l.pos:])
		if !pySpace(r) {
			break
		}
		l.pos += n
	}
	start := l.pos
	if l.pos >= len(l.src) {
		return token{kind: tEOF, pos: start, endAt: start}, nil
	}
	rest := l.src[l.pos:]
	if l.template && l.depth == 0 {
		d := l.d
		if d == nil {
			d = defaultDelims
		}
		for _, e := range []struct {
			s    string
			kind tokKind
			trim bool
		}{{"-" + d.varEnd, tVarEnd, true}, {d.varEnd, tVarEnd, false}, {"-" + d.blockEnd, tBlockEnd, true}, {d.blockEnd, tBlockEnd, false}} {
			if strings.HasPrefix(rest, e.s) {
				l.pos += len(e.s)
				return token{kind: e.kind, text: e.s, pos: start, trim: e.trim, endAt: l.pos}, nil
			}
		}
	}
	c := rest[0]
	switch {
	case c == '\'' || c == '"':
		return l.lexString(start)
	case c >= '0' && c <= '9':
		return l.lexNumber(start)
	case c == '_' || isLetter(c) || c >= 0x80:
		i := 0
		for i < len(rest) {
			r, n := utf8.DecodeRuneInString(rest[i:])
			if !(r == '_' || r < 0x80 && (isLetter(byte(r)) || isDigit(byte(r))) || r >= 0x80 && isUnicodeLetter(r)) {
				break
			}
			i += n
		}
		if i == 0 {
			return token{}, l.errAt(start, "unexpected character %q", []rune(rest)[0])
		}
		l.pos += i
		return token{kind: tName, text: rest[:i], pos: start, endAt: l.pos}, nil
	}
	for _, op := range operators {
		if strings.HasPrefix(rest, op) {
			switch op {
			case "(", "[", "{":
				l.depth++
			case ")", "]", "}":
				if l.depth > 0 {
					l.depth--
				}
			}
			l.pos += len(op)
			return token{kind: tOp, text: op, pos: start, endAt: l.pos}, nil
		}
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return token{}, l.errAt(start, "unexpected character %q", r)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// isUnicodeLetter reports whether r (not ASCII) may appear in a name, as
// in a Python identifier: letters, digits, combining marks and connector
// punctuation.
func isUnicodeLetter(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) ||
		unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nl, unicode.Pc, unicode.Other_ID_Start, unicode.Other_ID_Continue))
}

// pySpace reports whether r is whitespace for Python's str.isspace(), the
// \s of the regular expressions Jinja's lexer is built from.
func pySpace(r rune) bool { return pyfmt.IsSpace(r) }

func (l *lexer) lexNumber(start int) (token, error) {
	src := l.src
	i := start
	digits := func(ok func(byte) bool) {
		for i < len(src) && (ok(src[i]) || src[i] == '_' && i+1 < len(src) && ok(src[i+1])) {
			i++
		}
	}
	if src[i] == '0' && i+1 < len(src) && strings.IndexByte("xXoObB", src[i+1]) >= 0 {
		base := map[byte]int{'x': 16, 'o': 8, 'b': 2}[src[i+1]|0x20]
		i += 2
		ds := i
		digits(func(c byte) bool { return isDigit(c) || base == 16 && isLetter(c) && (c|0x20) <= 'f' })
		if i == ds {
			return token{}, l.errAt(start, "invalid number %q", src[start:i])
		}
		n, err := parseInt(strings.ReplaceAll(src[ds:i], "_", ""), base)
		if err != nil {
			return token{}, l.errAt(start, "%s", err)
		}
		l.pos = i
		return token{kind: tInt, num: n, text: src[start:i], pos: start, endAt: i}, nil
	}
	digits(isDigit)
	isFloat := false
	// A number right after a '.' is an attribute index (foo.0.1), never a float.
	afterDot := start > 0 && src[start-1] == '.'
	if !afterDot && i+1 < len(src) && src[i] == '.' && isDigit(src[i+1]) {
		i++
		digits(isDigit)
		isFloat = true
	}
	if !afterDot && i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && isDigit(src[j]) {
			i = j
			digits(isDigit)
			isFloat = true
		}
	}
	lit := strings.ReplaceAll(src[start:i], "_", "")
	l.pos = i
	if isFloat {
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil && !strings.Contains(err.Error(), "range") {
			return token{}, l.errAt(start, "invalid number %q", lit)
		}
		return token{kind: tFloat, num: f, text: lit, pos: start, endAt: i}, nil
	}
	n, err := parseInt(lit, 10)
	if err != nil {
		return token{}, l.errAt(start, "%s", err)
	}
	return token{kind: tInt, num: n, text: lit, pos: start, endAt: i}, nil
}

// lexString reads a quoted string and applies Python's unicode-escape rules:
// known escapes are decoded, unknown ones (\d) are kept with their backslash.
func (l *lexer) lexString(start int) (token, error) {
	src := l.src
	q := src[start]
	if l.raw {
		end := strings.IndexByte(src[start+1:], q)
		if end < 0 {
			return token{}, l.errAt(start, "unterminated string")
		}
		end += start + 1
		l.pos = end + 1
		return token{kind: tString, text: src[start+1 : end], pos: start, endAt: l.pos}, nil
	}
	var b strings.Builder
	i := start + 1
	for {
		if i >= len(src) {
			return token{}, l.errAt(start, "unterminated string")
		}
		c := src[i]
		if c == q {
			i++
			break
		}
		if c != '\\' || i+1 >= len(src) {
			b.WriteByte(c)
			i++
			continue
		}
		e := src[i+1]
		if e == '\n' {
			i += 2
			continue
		}
		n, problem := pyEscape(&b, src[i+1:])
		switch {
		case problem != "":
			return token{}, l.errAt(i, "%s \\%c escape", problem, e)
		case n == 0:
			b.WriteByte('\\')
			b.WriteByte(e)
			i += 2
		default:
			i += 1 + n
		}
	}
	l.pos = i
	return token{kind: tString, text: b.String(), pos: start, endAt: i}, nil
}

// pyEscape decodes the escape sequence after a backslash, s starting with
// its letter, as Python's string literals do: \\ \' \" \a \b \f \n \r \t
// \v, up to three octal digits, and \x, \u and \U with their 2, 4 or 8 hex
// digits. It writes the character to b and returns the length of the
// sequence, letter included: 0 for a letter it does not know (nothing
// written). problem is "truncated" or "invalid" for a bad hex escape.
func pyEscape(b *strings.Builder, s string) (n int, problem string) {
	r, n, _, problem := pyescape.Decode(s)
	if n > 0 {
		b.WriteRune(r)
	}
	return n, problem
}
