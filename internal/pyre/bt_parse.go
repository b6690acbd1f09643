package pyre

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The backtracking matcher's syntax tree: what Python's sre_parse makes
// of a pattern, for the patterns RE2 cannot run (backreferences,
// lookaround, atomic groups, conditionals, possessive repeats, the
// verbose flag).

type nodeKind uint8

const (
	nEmpty   nodeKind = iota
	nLit              // r (fold: IGNORECASE)
	nAny              // . (dotall: DOTALL)
	nClass            // cls
	nBegin            // \A
	nEnd              // \Z
	nCaret            // ^ (multi: MULTILINE)
	nDollar           // $ (multi: MULTILINE)
	nWordB            // \b, \B (neg)
	nGroup            // a capturing group idx around sub[0]
	nConcat           // sub, in order
	nAlt              // sub, the first that leads to a match
	nRepeat           // sub[0], min to max (-1: no bound) times
	nBackref          // the text group idx matched
	nLook             // (?=, (?!, (?<= (behind, width runes), (?<! (neg)
	nAtomic           // (?>...): sub[0]'s first match, never retried
	nCond             // (?(idx)sub[0]|sub[1])
)

type node struct {
	kind                            nodeKind
	r                               rune
	fold, multi, dotall, neg, ascii bool
	behind, greedy                  bool
	cls                             *charClass
	idx, min, max, width            int
	sub                             []*node
}

// flagSet is the flags in force where a node is parsed.
type flagSet struct{ i, m, s, x, a bool }

type parser struct {
	src     string
	pos     int
	flags   flagSet
	ncap    int
	names   map[string]int
	open    map[int]bool
	atStart bool // nothing but global flags parsed yet
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("regular expression %q: %s at position %d", p.src, fmt.Sprintf(format, args...), p.pos)
}

// parseBacktrack parses a Python pattern under flags f.
func parseBacktrack(pattern string, f flagSet) (*node, *parser, error) {
	p := &parser{src: pattern, flags: f, names: map[string]int{}, open: map[int]bool{}, atStart: true}
	n, err := p.alt()
	if err != nil {
		return nil, nil, err
	}
	if p.pos < len(p.src) {
		return nil, nil, p.errorf("unbalanced parenthesis")
	}
	return n, p, nil
}

func (p *parser) more() bool { return p.pos < len(p.src) }

// skipVerbose skips whitespace and # comments under the verbose flag.
func (p *parser) skipVerbose() {
	for p.flags.x && p.more() {
		switch c := p.src[p.pos]; {
		case c == '#':
			for p.more() && p.src[p.pos] != '\n' {
				p.pos++
			}
		case strings.IndexByte(" \t\n\r\f\v", c) >= 0:
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) alt() (*node, error) {
	var branches []*node
	for {
		c, err := p.concat()
		if err != nil {
			return nil, err
		}
		branches = append(branches, c)
		if p.more() && p.src[p.pos] == '|' {
			p.pos++
			continue
		}
		break
	}
	if len(branches) == 1 {
		return branches[0], nil
	}
	return &node{kind: nAlt, sub: branches}, nil
}

func (p *parser) concat() (*node, error) {
	var items []*node
	for {
		p.skipVerbose()
		if !p.more() || p.src[p.pos] == '|' || p.src[p.pos] == ')' {
			break
		}
		a, err := p.atom()
		if err != nil {
			return nil, err
		}
		if a == nil {
			continue
		}
		p.atStart = false
		if a, err = p.quant(a); err != nil {
			return nil, err
		}
		items = append(items, a)
	}
	switch len(items) {
	case 0:
		return &node{kind: nEmpty}, nil
	case 1:
		return items[0], nil
	}
	return &node{kind: nConcat, sub: items}, nil
}

// braces reads {m}, {m,}, {,n} or {m,n} at p.pos; ok is false (and
// nothing read) when the text there is no quantifier, a literal {.
func (p *parser) braces() (min, max int, ok bool) {
	end := strings.IndexByte(p.src[p.pos:], '}')
	if end < 0 {
		return 0, 0, false
	}
	body := p.src[p.pos+1 : p.pos+end]
	lo, hi, comma := strings.Cut(body, ",")
	if lo == "" && (!comma || hi == "") && body != "," || strings.Trim(lo+hi, "0123456789") != "" || body == "" {
		return 0, 0, false
	}
	min, max = 0, -1
	if lo != "" {
		min, _ = strconv.Atoi(lo)
	}
	if !comma {
		max = min
	} else if hi != "" {
		max, _ = strconv.Atoi(hi)
	}
	p.pos += end + 1
	return min, max, true
}

func (p *parser) quant(a *node) (*node, error) {
	p.skipVerbose()
	if !p.more() {
		return a, nil
	}
	min, max := 0, -1
	switch p.src[p.pos] {
	case '*':
		p.pos++
	case '+':
		min = 1
		p.pos++
	case '?':
		max = 1
		p.pos++
	case '{':
		var ok bool
		if min, max, ok = p.braces(); !ok {
			return a, nil
		}
	default:
		return a, nil
	}
	switch a.kind {
	case nBegin, nEnd, nCaret, nDollar, nWordB, nEmpty:
		return nil, p.errorf("nothing to repeat")
	}
	if max >= 0 && min > max {
		return nil, p.errorf("min repeat greater than max repeat")
	}
	n := &node{kind: nRepeat, min: min, max: max, greedy: true, sub: []*node{a}}
	possessive := false
	if p.more() && p.src[p.pos] == '?' {
		n.greedy = false
		p.pos++
	} else if p.more() && p.src[p.pos] == '+' {
		possessive = true
		p.pos++
	}
	p.skipVerbose()
	if p.more() && strings.IndexByte("*+?", p.src[p.pos]) >= 0 {
		return nil, p.errorf("multiple repeat")
	}
	if possessive {
		return &node{kind: nAtomic, sub: []*node{n}}, nil
	}
	return n, nil
}

func (p *parser) atom() (*node, error) {
	c := p.src[p.pos]
	switch c {
	case '(':
		return p.group()
	case '[':
		return p.class()
	case '.':
		p.pos++
		return &node{kind: nAny, dotall: p.flags.s}, nil
	case '^':
		p.pos++
		return &node{kind: nCaret, multi: p.flags.m}, nil
	case '$':
		p.pos++
		return &node{kind: nDollar, multi: p.flags.m}, nil
	case '\\':
		return p.escape()
	case '*', '+', '?':
		return nil, p.errorf("nothing to repeat")
	case '{':
		save := p.pos
		if _, _, ok := p.braces(); ok {
			p.pos = save
			return nil, p.errorf("nothing to repeat")
		}
	}
	r, w := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += w
	return &node{kind: nLit, r: r, fold: p.flags.i}, nil
}

// escape reads an escape outside a class.
func (p *parser) escape() (*node, error) {
	p.pos++
	if !p.more() {
		return nil, p.errorf("bad escape (end of pattern)")
	}
	c := p.src[p.pos]
	switch {
	case c == 'A':
		p.pos++
		return &node{kind: nBegin}, nil
	case c == 'Z':
		p.pos++
		return &node{kind: nEnd}, nil
	case c == 'b' || c == 'B':
		p.pos++
		return &node{kind: nWordB, neg: c == 'B', ascii: p.flags.a}, nil
	case strings.IndexByte("dDwWsS", c) >= 0:
		p.pos++
		cls := &charClass{}
		cls.addCat(c, p.flags.a)
		return &node{kind: nClass, cls: cls}, nil
	case c >= '1' && c <= '9':
		return p.groupRef()
	}
	r, err := p.charEscape(false)
	if err != nil {
		return nil, err
	}
	return &node{kind: nLit, r: r, fold: p.flags.i}, nil
}

// groupRef reads \N or \NN (a backreference) or a three-digit octal
// escape, as sre_parse tells them apart.
func (p *parser) groupRef() (*node, error) {
	s := p.src[p.pos:]
	if len(s) >= 3 && isOct(s[0]) && isOct(s[1]) && isOct(s[2]) {
		v, _ := strconv.ParseUint(s[:3], 8, 32)
		if v > 0o377 {
			return nil, p.errorf(`octal escape value \%s outside of range 0-0o377`, s[:3])
		}
		p.pos += 3
		return &node{kind: nLit, r: rune(v), fold: p.flags.i}, nil
	}
	k := 1
	if len(s) >= 2 && s[1] >= '0' && s[1] <= '9' {
		k = 2
	}
	n, _ := strconv.Atoi(s[:k])
	if err := p.checkGroup(n); err != nil {
		return nil, err
	}
	p.pos += k
	return &node{kind: nBackref, idx: n, fold: p.flags.i}, nil
}

func (p *parser) checkGroup(n int) error {
	if n > p.ncap {
		return p.errorf("invalid group reference %d", n)
	}
	if p.open[n] {
		return p.errorf("cannot refer to an open group")
	}
	return nil
}

func isOct(c byte) bool { return c >= '0' && c <= '7' }

// charEscape reads an escape that stands for one character (p.pos at the
// character after the backslash): \n and its kind, \xhh, \uXXXX,
// \UXXXXXXXX, octal \0oo (and, in a class, \ooo), a non-letter itself.
func (p *parser) charEscape(inClass bool) (rune, error) {
	c := p.src[p.pos]
	if r, ok := map[byte]rune{'a': '\a', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v', '\\': '\\'}[c]; ok {
		p.pos++
		return r, nil
	}
	if inClass && c == 'b' {
		p.pos++
		return '\b', nil
	}
	if n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]; n > 0 {
		h := p.src[p.pos+1:]
		if len(h) < n || strings.Trim(h[:n], "0123456789abcdefABCDEF") != "" {
			return 0, p.errorf(`incomplete escape \%c`, c)
		}
		v, _ := strconv.ParseUint(h[:n], 16, 32)
		if v > utf8.MaxRune {
			return 0, p.errorf(`bad escape \%s`, p.src[p.pos:p.pos+1+n])
		}
		p.pos += 1 + n
		return rune(v), nil
	}
	if isOct(c) && (c == '0' || inClass) {
		k := 1
		for k < 3 && p.pos+k < len(p.src) && isOct(p.src[p.pos+k]) {
			k++
		}
		v, _ := strconv.ParseUint(p.src[p.pos:p.pos+k], 8, 32)
		if v > 0o377 {
			return 0, p.errorf(`octal escape value \%s outside of range 0-0o377`, p.src[p.pos:p.pos+k])
		}
		p.pos += k
		return rune(v), nil
	}
	if c < utf8.RuneSelf && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
		return 0, p.errorf(`bad escape \%c`, c)
	}
	r, w := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += w
	return r, nil
}
