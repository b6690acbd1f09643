package pyre

import (
	"strconv"
	"strings"
	"unicode"
)

// group reads what opens with '(' up to its ')'; nil for a comment or a
// group of global flags, which match nothing.
func (p *parser) group() (*node, error) {
	p.pos++
	rest := p.src[p.pos:]
	if !strings.HasPrefix(rest, "?") {
		p.ncap++
		idx := p.ncap
		p.open[idx] = true
		sub, err := p.closed()
		delete(p.open, idx)
		if err != nil {
			return nil, err
		}
		return &node{kind: nGroup, idx: idx, sub: []*node{sub}}, nil
	}
	switch {
	case strings.HasPrefix(rest, "?:"):
		p.pos += 2
		return p.closed()
	case strings.HasPrefix(rest, "?P<"):
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			return nil, p.errorf("missing >, unterminated name")
		}
		name := rest[3:end]
		if !isIdentifier(name) {
			return nil, p.errorf("bad character in group name '%s'", name)
		}
		if _, dup := p.names[name]; dup {
			return nil, p.errorf("redefinition of group name '%s'", name)
		}
		p.pos += end + 1
		p.ncap++
		idx := p.ncap
		p.names[name] = idx
		p.open[idx] = true
		sub, err := p.closed()
		delete(p.open, idx)
		if err != nil {
			return nil, err
		}
		return &node{kind: nGroup, idx: idx, sub: []*node{sub}}, nil
	case strings.HasPrefix(rest, "?P="):
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return nil, p.errorf("missing ), unterminated name")
		}
		name := rest[3:end]
		idx, ok := p.names[name]
		if !ok {
			return nil, p.errorf("unknown group name '%s'", name)
		}
		if err := p.checkGroup(idx); err != nil {
			return nil, err
		}
		p.pos += end + 1
		return &node{kind: nBackref, idx: idx, fold: p.flags.i}, nil
	case strings.HasPrefix(rest, "?#"):
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return nil, p.errorf("missing ), unterminated comment")
		}
		p.pos += end + 1
		return nil, nil
	case strings.HasPrefix(rest, "?="), strings.HasPrefix(rest, "?!"):
		p.pos += 2
		sub, err := p.closed()
		if err != nil {
			return nil, err
		}
		return &node{kind: nLook, neg: rest[1] == '!', sub: []*node{sub}}, nil
	case strings.HasPrefix(rest, "?<="), strings.HasPrefix(rest, "?<!"):
		p.pos += 3
		sub, err := p.closed()
		if err != nil {
			return nil, err
		}
		lo, hi := width(sub)
		if lo != hi {
			return nil, p.errorf("look-behind requires fixed-width pattern")
		}
		return &node{kind: nLook, behind: true, neg: rest[2] == '!', width: lo, sub: []*node{sub}}, nil
	case strings.HasPrefix(rest, "?>"):
		p.pos += 2
		sub, err := p.closed()
		if err != nil {
			return nil, err
		}
		return &node{kind: nAtomic, sub: []*node{sub}}, nil
	case strings.HasPrefix(rest, "?("):
		return p.conditional()
	}
	return p.flagGroup()
}

// closed parses alternatives up to the ')' that ends a group.
func (p *parser) closed() (*node, error) {
	sub, err := p.alt()
	if err != nil {
		return nil, err
	}
	if !p.more() || p.src[p.pos] != ')' {
		return nil, p.errorf("missing ), unterminated subpattern")
	}
	p.pos++
	return sub, nil
}

// conditional reads (?(id or name)yes|no).
func (p *parser) conditional() (*node, error) {
	rest := p.src[p.pos:]
	end := strings.IndexByte(rest, ')')
	if end < 0 {
		return nil, p.errorf("missing ), unterminated name")
	}
	ref := rest[2:end]
	idx, err := strconv.Atoi(ref)
	if err != nil {
		var ok bool
		if idx, ok = p.names[ref]; !ok {
			return nil, p.errorf("unknown group name '%s'", ref)
		}
	} else if idx < 1 || idx > p.ncap {
		return nil, p.errorf("invalid group reference %d", idx)
	}
	p.pos += end + 1
	sub, err := p.closed()
	if err != nil {
		return nil, err
	}
	yes, no := sub, &node{kind: nEmpty}
	if sub.kind == nAlt {
		if len(sub.sub) > 2 {
			return nil, p.errorf("conditional backref with more than two branches")
		}
		yes, no = sub.sub[0], sub.sub[1]
	}
	return &node{kind: nCond, idx: idx, sub: []*node{yes, no}}, nil
}

// flagGroup reads (?flags) (global: only at the start, as in Python
// 3.11) or (?flags-flags:...) (scoped).
func (p *parser) flagGroup() (*node, error) {
	rest := p.src[p.pos+1:]
	k := 0
	for k < len(rest) && strings.IndexByte("aiLmsux-", rest[k]) >= 0 {
		k++
	}
	if k == len(rest) || (rest[k] != ')' && rest[k] != ':') {
		return nil, p.errorf("unknown extension ?%s", rest[:min(len(rest), k+1)])
	}
	on, off, scoped := rest[:k], "", rest[k] == ':'
	if i := strings.IndexByte(on, '-'); i >= 0 {
		on, off = on[:i], on[i+1:]
		if !scoped || strings.Contains(off, "-") {
			return nil, p.errorf("bad inline flags")
		}
	}
	if strings.Contains(on+off, "L") {
		return nil, p.errorf("bad inline flags: cannot use 'L' flag with a str pattern")
	}
	f := p.flags
	set := func(fl string, v bool) {
		for _, c := range fl {
			switch c {
			case 'i':
				f.i = v
			case 'm':
				f.m = v
			case 's':
				f.s = v
			case 'x':
				f.x = v
			case 'a':
				f.a = v
			}
		}
	}
	set(on, true)
	set(off, false)
	p.pos += 1 + k + 1
	if !scoped {
		if !p.atStart {
			return nil, p.errorf("global flags not at the start of the expression")
		}
		p.flags = f
		return nil, nil
	}
	saved := p.flags
	p.flags = f
	sub, err := p.closed()
	p.flags = saved
	return sub, err
}

func isIdentifier(s string) bool {
	for i, r := range s {
		if r != '_' && !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}

// width is how many characters n matches at least and at most (-1: no
// bound), for lookbehind.
func width(n *node) (lo, hi int) {
	switch n.kind {
	case nLit, nAny, nClass:
		return 1, 1
	case nGroup, nAtomic:
		return width(n.sub[0])
	case nConcat:
		for _, s := range n.sub {
			l, h := width(s)
			lo += l
			if hi >= 0 {
				hi = h + hi
				if h < 0 {
					hi = -1
				}
			}
		}
		return lo, hi
	case nAlt, nCond:
		lo, hi = -1, 0
		for _, s := range n.sub {
			l, h := width(s)
			if lo < 0 || l < lo {
				lo = l
			}
			if hi >= 0 && (h < 0 || h > hi) {
				hi = h
			}
		}
		return lo, hi
	case nRepeat:
		l, h := width(n.sub[0])
		lo = l * n.min
		if n.max < 0 || h < 0 {
			return lo, -1
		}
		return lo, h * n.max
	case nBackref:
		return 0, -1
	}
	return 0, 0
}
