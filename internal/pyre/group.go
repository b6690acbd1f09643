package pyre

import (
	"strconv"
	"strings"
	"unicode"
)

// group parses what follows a "(" at start: a group, an assertion, a
// comment (nil item), a conditional, a backreference by name, or global
// flags (global true, nil item; the caller checks where they stand).
func (p *parser) group(f flags, verbose bool, nested, start int) (*item, bool, error) {
	capture, open, name := true, "(", ""
	var add, del flags
	if p.eat('?') {
		c := p.peek()
		if c < 0 {
			return nil, false, p.errorf("unexpected end of pattern")
		}
		p.pos++
		switch {
		case c == 'P':
			switch {
			case p.eat('<'):
				var err error
				if name, err = p.until('>', "group name"); err != nil {
					return nil, false, err
				}
				if err := p.checkName(name, 1); err != nil {
					return nil, false, err
				}
			case p.eat('='):
				name, err := p.until(')', "group name")
				if err != nil {
					return nil, false, err
				}
				if err := p.checkName(name, 1); err != nil {
					return nil, false, err
				}
				gid, ok := p.names[name]
				if !ok {
					return nil, false, p.errAt(p.pos-len([]rune(name))-1, "unknown group name '%s'", name)
				}
				it, err := p.backref(gid, len([]rune(name))+1)
				return &it, false, err
			default:
				if !p.more() {
					return nil, false, p.errorf("unexpected end of pattern")
				}
				p.pos++
				return nil, false, p.errAt(p.pos-3, "unknown extension ?P%c", p.src[p.pos-1])
			}
		case c == ':':
			capture, open = false, "(?:"
		case c == '#':
			for {
				if !p.more() {
					return nil, false, p.errAt(start, "missing ), unterminated comment")
				}
				p.pos++
				if p.src[p.pos-1] == ')' {
					return nil, false, nil
				}
			}
		case c == '=' || c == '!' || c == '<':
			return p.assertion(f, verbose, nested, start, c)
		case c == '(':
			return p.conditional(f, verbose, nested, start)
		case c == '>':
			capture, open = false, "(?>"
		case c == '-' || flagOf[c] != 0:
			a, d, global, err := p.inlineFlags(c)
			if err != nil {
				return nil, false, err
			}
			if global {
				p.flags |= a
				return nil, true, nil
			}
			add, del, capture = a, d, false
			open = "(?" + dotnetFlags(a) + dashFlags(dotnetFlags(d)) + ":"
		default:
			if c == '\\' && !p.more() {
				return nil, false, p.errAt(p.pos-1, "bad escape (end of pattern)")
			}
			return nil, false, p.errAt(p.pos-2, "unknown extension ?%s", string(p.token(p.pos-1)))
		}
	}
	gid := 0
	if capture {
		if len(p.groups) > maxGroups {
			return nil, false, p.errorf("too many groups")
		}
		gid = len(p.groups)
		if name != "" {
			if was, ok := p.names[name]; ok {
				return nil, false, p.errAt(p.pos-len([]rune(name))-1, "redefinition of group name '%s' as group %d; was group %d", name, gid, was)
			}
			p.names[name] = gid
		}
		p.groups = append(p.groups, group{})
	}
	subVerbose := (verbose || add&flagX != 0) && del&flagX == 0
	re, lo, hi, err := p.alternation((f|add)&^del, subVerbose, nested)
	if err != nil {
		return nil, false, err
	}
	if !p.eat(')') {
		return nil, false, p.errAt(start, "missing ), unterminated subpattern")
	}
	if capture {
		p.groups[gid] = group{closed: true, lo: lo, hi: hi}
	}
	return &item{re: open + re + ")", lo: lo, hi: hi}, false, nil
}

// assertion parses a lookahead or lookbehind after its "(?" and c.
func (p *parser) assertion(f flags, verbose bool, nested, start int, c rune) (*item, bool, error) {
	open := "(?" + string(c)
	behind := c == '<'
	outer := p.lookbehind
	if behind {
		if !p.more() {
			return nil, false, p.errorf("unexpected end of pattern")
		}
		c = p.src[p.pos]
		p.pos++
		if c != '=' && c != '!' {
			if c == '\\' && !p.more() {
				return nil, false, p.errAt(p.pos-1, "bad escape (end of pattern)")
			}
			return nil, false, p.errAt(p.pos-3, "unknown extension ?<%s", string(p.token(p.pos-1)))
		}
		open += string(c)
		if outer < 0 {
			p.lookbehind = len(p.groups)
		}
	}
	re, lo, hi, err := p.alternation(f, verbose, nested)
	p.lookbehind = outer
	if err != nil {
		return nil, false, err
	}
	if !p.eat(')') {
		return nil, false, p.errAt(start, "missing ), unterminated subpattern")
	}
	if behind && lo != hi {
		return nil, false, p.errAt(start, "look-behind requires fixed-width pattern")
	}
	return &item{re: open + re + ")"}, false, nil
}

// conditional parses (?(group)yes|no) after its "(?(".
func (p *parser) conditional(f flags, verbose bool, nested, start int) (*item, bool, error) {
	name, err := p.until(')', "group name")
	if err != nil {
		return nil, false, err
	}
	n := len([]rune(name)) + 1
	var gid int
	if isIdentifier(name) {
		if err := p.checkName(name, 1); err != nil {
			return nil, false, err
		}
		var ok bool
		if gid, ok = p.names[name]; !ok {
			return nil, false, p.errAt(p.pos-n, "unknown group name '%s'", name)
		}
	} else {
		v, err := strconv.ParseUint(strings.TrimSpace(name), 10, 64)
		if err != nil || !isDecimal(strings.TrimSpace(name)) {
			return nil, false, p.errAt(p.pos-n, "bad character in group name '%s'", name)
		}
		if v == 0 {
			return nil, false, p.errAt(p.pos-n, "bad group number")
		}
		if v >= maxGroups {
			return nil, false, p.errAt(p.pos-n, "invalid group reference %d", v)
		}
		gid = int(v)
		if _, ok := p.condRefs[gid]; !ok {
			p.condRefs[gid] = p.pos - n
		}
	}
	if err := p.checkLookbehind(gid); err != nil {
		return nil, false, err
	}
	yes, ylo, yhi, err := p.sequence(f, verbose, nested+1, false)
	if err != nil {
		return nil, false, err
	}
	re, lo, hi := "(?("+strconv.Itoa(gid)+")"+yes, int64(0), yhi
	if p.eat('|') {
		no, nlo, nhi, err := p.sequence(f, verbose, nested+1, false)
		if err != nil {
			return nil, false, err
		}
		if p.peek() == '|' {
			return nil, false, p.errorf("conditional backref with more than two branches")
		}
		re += "|" + no
		lo, hi = min(ylo, nlo), max(yhi, nhi)
	}
	if !p.eat(')') {
		return nil, false, p.errAt(start, "missing ), unterminated subpattern")
	}
	return &item{re: re + ")", lo: lo, hi: hi}, false, nil
}

// backref is a reference to group gid, written in n runes before pos.
func (p *parser) backref(gid, n int) (item, error) {
	if gid >= len(p.groups) || !p.groups[gid].closed {
		return item{}, p.errAt(p.pos-n, "cannot refer to an open group")
	}
	if err := p.checkLookbehind(gid); err != nil {
		return item{}, err
	}
	g := p.groups[gid]
	return item{re: `\k<` + strconv.Itoa(gid) + `>`, lo: g.lo, hi: g.hi}, nil
}

// checkLookbehind refuses, inside a lookbehind, a reference to a group
// that is open or defined in that lookbehind.
func (p *parser) checkLookbehind(gid int) error {
	if p.lookbehind < 0 {
		return nil
	}
	if gid >= len(p.groups) || !p.groups[gid].closed {
		return p.errorf("cannot refer to an open group")
	}
	if gid >= p.lookbehind {
		return p.errorf("cannot refer to group defined in the same lookbehind subpattern")
	}
	return nil
}

// until reads up to terminator (consumed), for a name.
func (p *parser) until(terminator rune, what string) (string, error) {
	s := p.pos
	for {
		if !p.more() {
			if p.pos == s {
				return "", p.errorf("missing %s", what)
			}
			return "", p.errAt(s, "missing %c, unterminated name", terminator)
		}
		c := p.src[p.pos]
		p.pos++
		if c == terminator {
			if p.pos-1 == s {
				return "", p.errAt(s, "missing %s", what)
			}
			return string(p.src[s : p.pos-1]), nil
		}
	}
}

// checkName refuses a group name that is not a Python identifier.
func (p *parser) checkName(name string, offset int) error {
	if !isIdentifier(name) {
		return p.errAt(p.pos-len([]rune(name))-offset, "bad character in group name '%s'", name)
	}
	return nil
}

// isIdentifier approximates Python's str.isidentifier: a letter or "_",
// then letters, digits, marks and connectors.
func isIdentifier(s string) bool {
	for i, r := range s {
		switch {
		case r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r):
		case i > 0 && (unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc)):
		default:
			return false
		}
	}
	return s != ""
}

func isDecimal(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
