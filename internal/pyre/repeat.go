package pyre

import (
	"strconv"
)

// repeat applies the repeat c (one of * + ? {), which began at start, to
// the last of items; a "{" that is no repeat is a literal, as in Python.
func (p *parser) repeat(items []item, c rune, start int) ([]item, error) {
	var lo, hi int64
	switch c {
	case '?':
		lo, hi = 0, 1
	case '*':
		lo, hi = 0, unboundedHi
	case '+':
		lo, hi = 1, unboundedHi
	case '{':
		if p.peek() == '}' {
			return append(items, p.literal('{', 0)), nil
		}
		l, h, ok, err := p.counts()
		if err != nil {
			return nil, err
		}
		if !ok {
			p.pos = start + 1
			return append(items, p.literal('{', 0)), nil
		}
		lo, hi = l, h
	}
	if len(items) == 0 || items[len(items)-1].kind == itemAt {
		return nil, p.errAt(start, "nothing to repeat")
	}
	last := &items[len(items)-1]
	if last.kind == itemRepeat {
		return nil, p.errAt(start, "multiple repeat")
	}
	q := quantifier(lo, hi)
	switch {
	case p.eat('?'):
		last.re += q + "?"
	case p.eat('+'):
		// possessive (Python 3.11): an atomic group around the repeat
		last.re = "(?>" + last.re + q + ")"
	default:
		last.re += q
	}
	last.lo, last.hi = mulWidth(last.lo, lo), mulWidth(last.hi, hi)
	if hi == unboundedHi && last.hi > 0 {
		last.hi = unboundedHi
	}
	last.kind = itemRepeat
	return items, nil
}

// counts reads the rest of {m,n} after its "{": ok false when it is no
// repeat (a literal "{" then).
func (p *parser) counts() (lo, hi int64, ok bool, err error) {
	digits := func() string {
		s := p.pos
		for p.more() && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
		}
		return string(p.src[s:p.pos])
	}
	here := p.pos
	l := digits()
	h := l
	if p.eat(',') {
		h = digits()
	}
	if !p.eat('}') {
		return 0, 0, false, nil
	}
	lo, hi = 0, unboundedHi
	if l != "" {
		if lo, err = p.count(l); err != nil {
			return 0, 0, false, err
		}
	}
	if h != "" {
		if hi, err = p.count(h); err != nil {
			return 0, 0, false, err
		}
		if hi < lo {
			return 0, 0, false, p.errAt(here, "min repeat greater than max repeat")
		}
	}
	return lo, hi, true, nil
}

// count reads a repeat count: Python refuses one of 2**32-1 or more;
// regexp2 takes at most 2**31-1, so counts between are refused too.
func (p *parser) count(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n >= maxRepeat {
		return 0, p.errorf("the repetition number is too large")
	}
	if n > maxCount {
		return 0, p.errorf("the repetition number is too large (tender's bound is %d)", maxCount)
	}
	return n, nil
}

// quantifier is regexp2's repeat from lo to hi times.
func quantifier(lo, hi int64) string {
	switch {
	case lo == 0 && hi == unboundedHi:
		return "*"
	case lo == 1 && hi == unboundedHi:
		return "+"
	case lo == 0 && hi == 1:
		return "?"
	case hi == unboundedHi:
		return "{" + strconv.FormatInt(lo, 10) + ",}"
	case lo == hi:
		return "{" + strconv.FormatInt(lo, 10) + "}"
	}
	return "{" + strconv.FormatInt(lo, 10) + "," + strconv.FormatInt(hi, 10) + "}"
}
