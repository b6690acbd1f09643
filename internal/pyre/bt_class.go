package pyre

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// charClass is a set of characters: ranges (lo, hi pairs) and the
// categories \d, \w, \s (or their complements).
type charClass struct {
	neg, fold bool
	ranges    []rune
	cats      []classCat
}

type classCat struct {
	kind       byte // 'd', 'w' or 's'
	neg, ascii bool
}

// addCat adds \d, \D, \w, \W, \s or \S.
func (c *charClass) addCat(esc byte, ascii bool) {
	kind := esc | 0x20 // lower case
	c.cats = append(c.cats, classCat{kind: kind, neg: esc != kind, ascii: ascii})
}

func (c classCat) has(r rune) bool {
	var in bool
	switch c.kind {
	case 'd':
		in = r >= '0' && r <= '9' || !c.ascii && unicode.IsDigit(r)
	case 'w':
		in = isWordRune(r, c.ascii)
	case 's':
		in = strings.ContainsRune(" \t\n\r\f\v", r) || !c.ascii && (unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f)
	}
	return in != c.neg
}

// isWordRune is Python's \w: [a-zA-Z0-9_], and on text every letter and
// number Unicode knows (str.isalnum).
func isWordRune(r rune, ascii bool) bool {
	if r < utf8.RuneSelf {
		return r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	return !ascii && (unicode.IsLetter(r) || unicode.IsNumber(r))
}

func (c *charClass) holds(r rune) bool {
	for i := 0; i < len(c.ranges); i += 2 {
		if r >= c.ranges[i] && r <= c.ranges[i+1] {
			return true
		}
	}
	for _, cat := range c.cats {
		if cat.has(r) {
			return true
		}
	}
	return false
}

// has reports whether r is in the class, under IGNORECASE when any of
// r's case variants is.
func (c *charClass) has(r rune) bool {
	in := c.holds(r)
	if !in && c.fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if c.holds(f) {
				in = true
				break
			}
		}
	}
	return in != c.neg
}

// foldEq reports whether a and b are the same letter but for case.
func foldEq(a, b rune) bool {
	if a == b {
		return true
	}
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

// class reads [...].
func (p *parser) class() (*node, error) {
	p.pos++
	cls := &charClass{fold: p.flags.i}
	if p.more() && p.src[p.pos] == '^' {
		cls.neg = true
		p.pos++
	}
	for first := true; ; first = false {
		if !p.more() {
			return nil, p.errorf("unterminated character set")
		}
		if p.src[p.pos] == ']' && !first {
			p.pos++
			break
		}
		lo, cat, err := p.classItem()
		if err != nil {
			return nil, err
		}
		if cat != 0 {
			cls.addCat(cat, p.flags.a)
			continue
		}
		hi := lo
		if p.pos+1 < len(p.src) && p.src[p.pos] == '-' && p.src[p.pos+1] != ']' {
			p.pos++
			if hi, cat, err = p.classItem(); err != nil {
				return nil, err
			}
			if cat != 0 || hi < lo {
				return nil, p.errorf("bad character range")
			}
		}
		cls.ranges = append(cls.ranges, lo, hi)
	}
	return &node{kind: nClass, cls: cls}, nil
}

// classItem reads one character of a class, or a category escape (cat
// is then its letter).
func (p *parser) classItem() (r rune, cat byte, err error) {
	if p.src[p.pos] != '\\' {
		r, w := utf8.DecodeRuneInString(p.src[p.pos:])
		p.pos += w
		return r, 0, nil
	}
	p.pos++
	if !p.more() {
		return 0, 0, p.errorf("bad escape (end of pattern)")
	}
	if c := p.src[p.pos]; strings.IndexByte("dDwWsS", c) >= 0 {
		p.pos++
		return 0, c, nil
	}
	r, err = p.charEscape(true)
	return r, 0, err
}
