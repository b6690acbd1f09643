package pyre

import (
	"strings"
)

// Python's classes \d, \w, \s, as the inside of a regexp2 class. On text
// (str patterns without the ASCII flag) they are Unicode's: \d the
// decimal digits (Nd), \w what str.isalnum() accepts and "_", \s what
// str.isspace() accepts (the separators, the ASCII whitespace, \x1c to
// \x1f and \x85). Otherwise (bytes patterns, the flags a and L) they are
// ASCII's. regexp2's own \w and \s differ (\w takes the combining marks
// and connectors, \s leaves out \x1c to \x1f), so they are never used.
const (
	uniDigit  = `\p{Nd}`
	uniWord   = `\p{L}\p{N}_`
	uniSpace  = `\t-\r\x1c-\x1f\x85\p{Z}`
	asciiDig  = `0-9`
	asciiWord = `0-9A-Za-z_`
	asciiSp   = `\t-\r\x20`
)

// cat is one of Python's classes \d \D \s \S \w \W.
type cat struct {
	inner string // the characters of \d, \s or \w
	neg   bool   // \D, \S, \W
}

func category(c rune, ascii bool) cat {
	var inner string
	switch c {
	case 'd', 'D':
		inner = uniDigit
		if ascii {
			inner = asciiDig
		}
	case 's', 'S':
		inner = uniSpace
		if ascii {
			inner = asciiSp
		}
	default:
		inner = uniWord
		if ascii {
			inner = asciiWord
		}
	}
	return cat{inner: inner, neg: c >= 'A' && c <= 'Z'}
}

// atom is the class as one regexp2 atom.
func (c cat) atom() string {
	if c.neg {
		return "[^" + c.inner + "]"
	}
	return "[" + c.inner + "]"
}

// wordBoundary is Python's \b with its own \w: at a change between a
// word character and another character (or an end).
func wordBoundary(ascii bool) string {
	w := category('w', ascii).atom()
	return `(?:(?<=` + w + `)(?!` + w + `)|(?<!` + w + `)(?=` + w + `))`
}

// notWordBoundary is Python's \B, which (before Python 3.14) never
// matches in an empty text.
func notWordBoundary(ascii bool) string {
	w := category('w', ascii).atom()
	return `(?:(?<=` + w + `)(?=` + w + `)|(?<!` + w + `)(?!` + w + `)(?!\A\z))`
}

// ascii reports whether \d \s \w mean ASCII's classes under flags f.
func (p *parser) ascii(f flags) bool {
	return p.bytes || (f|p.flags)&(flagA|flagL) != 0
}

// class parses a set [...] after its "[" (at start).
func (p *parser) class(f flags, start int) (item, error) {
	negate := p.eat('^')
	var inner strings.Builder
	var negCats []string
	n := 0
	unterminated := func() error { return p.errAt(start, "unterminated character set") }
	for {
		if !p.more() {
			return item{}, unterminated()
		}
		tok := p.pos
		c := p.src[p.pos]
		p.pos++
		if c == ']' && n > 0 {
			break
		}
		n++
		lo, cv, err := p.classAtom(c, f)
		if err != nil {
			return item{}, err
		}
		if p.eat('-') {
			if !p.more() {
				return item{}, unterminated()
			}
			tok2 := p.pos
			c2 := p.src[p.pos]
			p.pos++
			if c2 == ']' {
				p.addClassAtom(&inner, &negCats, lo, cv)
				inner.WriteString(p.lit('-'))
				break
			}
			hi, cv2, err := p.classAtom(c2, f)
			if err != nil {
				return item{}, err
			}
			if cv != nil || cv2 != nil || hi < lo {
				// Python names each end by its token (an escape's
				// backslash and letter, not its digits), and counts the
				// position back from after the range.
				this, that := p.token(tok), p.token(tok2)
				return item{}, p.errAt(p.pos-len(this)-1-len(that), "bad character range %s-%s", string(this), string(that))
			}
			p.addRange(&inner, lo, hi)
			continue
		}
		p.addClassAtom(&inner, &negCats, lo, cv)
	}
	return item{re: classRegexp(negate, inner.String(), negCats), lo: 1, hi: 1}, nil
}

// classAtom reads one member of a set whose first rune c was read: a
// character (r), or one of \d \D \s \S \w \W (cv).
func (p *parser) classAtom(c rune, f flags) (rune, *cat, error) {
	if c != '\\' {
		return c, nil, nil
	}
	start := p.pos - 1
	if !p.more() {
		return 0, nil, p.errAt(start, "bad escape (end of pattern)")
	}
	e := p.src[p.pos]
	p.pos++
	switch e {
	case 'd', 'D', 's', 'S', 'w', 'W':
		cv := category(e, p.ascii(f))
		return 0, &cv, nil
	}
	r, err := p.charEscape(e, start, true)
	return r, nil, err
}

func (p *parser) addClassAtom(inner *strings.Builder, negCats *[]string, r rune, cv *cat) {
	switch {
	case cv == nil:
		inner.WriteString(p.lit(r))
	case cv.neg:
		*negCats = append(*negCats, cv.inner)
	default:
		inner.WriteString(cv.inner)
	}
}

// addRange writes the range lo-hi; in a bytes pattern the bytes from 0x80
// on stand for other characters (byteRune), so a range across 0x80 is two.
func (p *parser) addRange(inner *strings.Builder, lo, hi rune) {
	if p.bytes && lo < 0x80 && hi >= 0x80 {
		p.addRange(inner, lo, 0x7f)
		p.addRange(inner, 0x80, hi)
		return
	}
	inner.WriteString(p.lit(lo) + "-" + p.lit(hi))
}

// classRegexp is the set as one regexp2 atom. The complement classes
// (\D \S \W) cannot join other members inside one class, so a set with
// them is an alternation of classes (under a negative lookahead for
// [^...]).
func classRegexp(negate bool, inner string, negCats []string) string {
	hat := ""
	if negate {
		hat = "^"
	}
	switch {
	case len(negCats) == 0:
		return "[" + hat + inner + "]"
	case len(negCats) == 1 && inner == "":
		if negate {
			return "[" + negCats[0] + "]"
		}
		return "[^" + negCats[0] + "]"
	}
	var alts []string
	if inner != "" {
		alts = append(alts, "["+inner+"]")
	}
	for _, c := range negCats {
		alts = append(alts, "[^"+c+"]")
	}
	union := "(?:" + strings.Join(alts, "|") + ")"
	if negate {
		return `(?:(?!` + union + `)[\s\S])`
	}
	return union
}
