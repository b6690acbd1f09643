package pyre

import (
	"fmt"
	"strconv"
	"strings"
)

// escape parses an escape outside a class, after its backslash: an
// anchor, a class of characters, a literal or a backreference.
func (p *parser) escape(f flags) (item, error) {
	start := p.pos - 1
	if !p.more() {
		return item{}, p.errAt(start, "bad escape (end of pattern)")
	}
	c := p.src[p.pos]
	p.pos++
	ascii := p.ascii(f)
	switch c {
	case 'A':
		return item{re: `\A`, kind: itemAt}, nil
	case 'Z':
		return item{re: `\z`, kind: itemAt}, nil
	case 'b':
		return item{re: wordBoundary(ascii), kind: itemAt}, nil
	case 'B':
		return item{re: notWordBoundary(ascii), kind: itemAt}, nil
	case 'd', 'D', 's', 'S', 'w', 'W':
		return item{re: category(c, ascii).atom(), lo: 1, hi: 1}, nil
	}
	if c >= '1' && c <= '9' {
		digits := string(c)
		if d := p.peek(); d >= '0' && d <= '9' {
			p.pos++
			digits += string(d)
			if c <= '7' && d <= '7' {
				if e := p.peek(); e >= '0' && e <= '7' {
					p.pos++
					v, _ := strconv.ParseUint(digits+string(e), 8, 16)
					if v > 0o377 {
						return item{}, p.errAt(start, `octal escape value \%s outside of range 0-0o377`, digits+string(e))
					}
					return p.literal(rune(v), f), nil
				}
			}
		}
		gid, _ := strconv.Atoi(digits)
		if gid >= len(p.groups) {
			return item{}, p.errAt(start+1, "invalid group reference %d", gid)
		}
		return p.backref(gid, len(digits)+1)
	}
	r, err := p.charEscape(c, start, false)
	if err != nil {
		return item{}, err
	}
	return p.literal(r, f), nil
}

// charEscape is the character an escape stands for, after its backslash
// and c (at start): \a \f \n \r \t \v \\, \xhh, \uhhhh, \Uhhhhhhhh,
// \N{name}, octal, or a character that is no ASCII letter or digit.
// inClass: \b is a backspace and \1..\7 are octal.
func (p *parser) charEscape(c rune, start int, inClass bool) (rune, error) {
	bad := func() error { return p.errAt(start, `bad escape %s`, string(p.src[start:p.pos])) }
	switch c {
	case 'a':
		return '\a', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'v':
		return '\v', nil
	case '\\':
		return '\\', nil
	case 'b':
		if inClass {
			return '\b', nil
		}
	case 'x':
		return p.hexEscape(start, 2)
	case 'u', 'U':
		if p.bytes {
			return 0, bad()
		}
		n := 4
		if c == 'U' {
			n = 8
		}
		r, err := p.hexEscape(start, n)
		if err == nil && r > 0x10ffff {
			return 0, bad()
		}
		return r, err
	case 'N':
		if p.bytes {
			return 0, bad()
		}
		return p.namedEscape(start)
	case '0':
		return p.octal(start, 2)
	}
	if inClass && c >= '1' && c <= '7' {
		return p.octal(start, 2)
	}
	if c < 0x80 && (isAlpha(c) || (c >= '0' && c <= '9')) {
		return 0, bad()
	}
	return c, nil
}

// hexEscape reads exactly n hex digits.
func (p *parser) hexEscape(start, n int) (rune, error) {
	s := p.pos
	for p.pos < len(p.src) && p.pos-s < n && strings.ContainsRune("0123456789abcdefABCDEF", p.src[p.pos]) {
		p.pos++
	}
	if p.pos-s != n {
		return 0, p.errAt(start, "incomplete escape %s", string(p.src[start:p.pos]))
	}
	v, _ := strconv.ParseUint(string(p.src[s:p.pos]), 16, 32)
	return rune(v), nil
}

// octal reads up to more octal digits after the one just read.
func (p *parser) octal(start, more int) (rune, error) {
	for k := 0; k < more && p.peek() >= '0' && p.peek() <= '7'; k++ {
		p.pos++
	}
	v, _ := strconv.ParseUint(string(p.src[start+1:p.pos]), 8, 32)
	if v > 0o377 {
		return 0, p.errAt(start, `octal escape value %s outside of range 0-0o377`, string(p.src[start:p.pos]))
	}
	return rune(v), nil
}

// literal is the item matching the character r under the flags f: a
// byte of a bytes pattern, a code point of a text pattern. Under the
// flags a and i Python folds ASCII letters only, where regexp2 folds all
// of Unicode: a literal outside ASCII, and the letters k and s (which
// fold with the Kelvin sign and the long s), are matched without it.
func (p *parser) literal(r rune, f flags) item {
	p.lits = append(p.lits, r)
	re := p.lit(r)
	if !p.bytes && f&flagI != 0 && p.ascii(f) {
		switch {
		case r >= 0x80:
			re = "(?-i:" + re + ")"
		case r == 'k' || r == 'K':
			re = "(?-i:[kK])"
		case r == 's' || r == 'S':
			re = "(?-i:[sS])"
		}
	}
	return item{re: re, lo: 1, hi: 1}
}

// lit writes the character r for regexp2, outside or inside a class:
// ASCII letters and digits as they are, other ASCII as \xhh, other BMP
// characters as \uhhhh, the rest as they are. A bytes pattern's bytes
// from 0x80 stand for the characters the text's bytes become (byteRune).
func (p *parser) lit(r rune) string {
	if p.bytes {
		r = byteRune(byte(r))
	}
	switch {
	case r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'):
		return string(r)
	case r < 0x80:
		return fmt.Sprintf(`\x%02x`, r)
	case r <= 0xffff:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return string(r)
}

// byteRune is the character a byte of a bytes pattern or text becomes:
// ASCII itself, the others one of 128 private-use characters, which no
// class of Python's bytes patterns holds and no case folding touches.
func byteRune(b byte) rune {
	if b < 0x80 {
		return rune(b)
	}
	return 0xf700 + rune(b)
}

// Escape is Python's re.escape (3.7 on): a backslash before each
// character that is special in a pattern, and before whitespace.
func Escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(escaped, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

const escaped = "()[]{}?*+-|^$\\.&~# \t\n\r\v\f"
