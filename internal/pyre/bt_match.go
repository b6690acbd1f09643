package pyre

import (
	"fmt"
	"unicode/utf8"
)

// btLimit bounds the steps one search of the backtracking matcher may
// take (a few tenths of a second), and btDepth how deeply its matching
// may nest (each level is a few Go stack frames): past either the search
// fails with ErrBacktrackLimit instead of running on, as Python's would,
// for a pattern that backtracks catastrophically, or overflowing the
// stack on a long text.
const (
	btLimit = 10_000_000
	btDepth = 100_000
)

// ErrBacktrackLimit is the error of a search that took too many steps.
var ErrBacktrackLimit = fmt.Errorf("regular expression needs more than %d backtracking steps or %d levels of nesting", btLimit, btDepth)

// btState is one search: the text, the groups' bounds so far, the steps
// taken and the depth of the matching now.
type btState struct {
	in                  []byte
	caps                []int
	steps, limit, depth int
}

func (m *btState) over() bool { return m.steps > m.limit }

// match matches n at pos and then, at the position where n ended, the
// rest of the pattern (k); it tries n's ways of matching in Python's
// order until k succeeds.
func (m *btState) match(n *node, pos int, k func(int) bool) bool {
	if m.steps++; m.over() {
		return false
	}
	if m.depth++; m.depth > btDepth {
		m.steps = m.limit + 1
		return false
	}
	ok := m.step(n, pos, k)
	m.depth--
	return ok
}

func (m *btState) step(n *node, pos int, k func(int) bool) bool {
	switch n.kind {
	case nEmpty:
		return k(pos)
	case nLit, nAny, nClass:
		r, w := utf8.DecodeRune(m.in[pos:])
		if w == 0 {
			return false
		}
		switch n.kind {
		case nLit:
			if r != n.r && (!n.fold || !foldEq(r, n.r)) {
				return false
			}
		case nAny:
			if r == '\n' && !n.dotall {
				return false
			}
		default:
			if !n.cls.has(r) {
				return false
			}
		}
		return k(pos + w)
	case nBegin:
		return pos == 0 && k(pos)
	case nEnd:
		return pos == len(m.in) && k(pos)
	case nCaret:
		return (pos == 0 || n.multi && m.in[pos-1] == '\n') && k(pos)
	case nDollar:
		end := pos == len(m.in) || m.in[pos] == '\n' && (n.multi || pos == len(m.in)-1)
		return end && k(pos)
	case nWordB:
		before, after := false, false
		if r, w := utf8.DecodeLastRune(m.in[:pos]); w > 0 {
			before = isWordRune(r, n.ascii)
		}
		if r, w := utf8.DecodeRune(m.in[pos:]); w > 0 {
			after = isWordRune(r, n.ascii)
		}
		return (before != after) != n.neg && k(pos)
	case nConcat:
		return m.seq(n.sub, 0, pos, k)
	case nAlt:
		for _, s := range n.sub {
			if m.match(s, pos, k) {
				return true
			}
			if m.over() {
				return false
			}
		}
		return false
	case nGroup:
		i := 2 * n.idx
		return m.match(n.sub[0], pos, func(e int) bool {
			s0, e0 := m.caps[i], m.caps[i+1]
			m.caps[i], m.caps[i+1] = pos, e
			if k(e) {
				return true
			}
			m.caps[i], m.caps[i+1] = s0, e0
			return false
		})
	case nRepeat:
		return m.repeat(n, 0, pos, k)
	case nBackref:
		return m.backref(n, pos, k)
	case nLook, nAtomic:
		return m.atomic(n, pos, k)
	case nCond:
		if m.caps[2*n.idx] >= 0 {
			return m.match(n.sub[0], pos, k)
		}
		return m.match(n.sub[1], pos, k)
	}
	return false
}

func (m *btState) seq(subs []*node, i, pos int, k func(int) bool) bool {
	if i == len(subs) {
		return k(pos)
	}
	return m.match(subs[i], pos, func(p int) bool { return m.seq(subs, i+1, p, k) })
}

// repeat matches n's count-th and later repetitions at pos: greedy ones
// try one more first, lazy ones the rest of the pattern first. Past the
// minimum, a repetition that matched nothing ends the loop (its groups
// kept), as in sre.
func (m *btState) repeat(n *node, count, pos int, k func(int) bool) bool {
	more := func() bool {
		if n.max >= 0 && count >= n.max {
			return false
		}
		return m.match(n.sub[0], pos, func(p int) bool {
			if p == pos && count >= n.min {
				return k(p)
			}
			return m.repeat(n, count+1, p, k)
		})
	}
	switch {
	case count < n.min:
		return more()
	case n.greedy:
		return more() || !m.over() && k(pos)
	}
	return k(pos) || !m.over() && more()
}

func (m *btState) backref(n *node, pos int, k func(int) bool) bool {
	s, e := m.caps[2*n.idx], m.caps[2*n.idx+1]
	if s < 0 {
		return false
	}
	ref, at := m.in[s:e], pos
	for len(ref) > 0 {
		a, wa := utf8.DecodeRune(ref)
		b, wb := utf8.DecodeRune(m.in[at:])
		if wb == 0 || a != b && (!n.fold || !foldEq(a, b)) {
			return false
		}
		ref, at = ref[wa:], at+wb
	}
	return k(at)
}

// atomic matches a lookaround (at pos, or ending at pos for a lookbehind)
// or an atomic group: its first match only, never retried; a negative
// lookaround succeeds where none is found. Groups set inside a positive
// one stay set for the rest.
func (m *btState) atomic(n *node, pos int, k func(int) bool) bool {
	saved := append([]int(nil), m.caps...)
	start, end := pos, -1
	found := true
	if n.behind {
		for i := 0; i < n.width && found; i++ {
			_, w := utf8.DecodeLastRune(m.in[:start])
			start -= w
			found = w > 0
		}
	}
	found = found && m.match(n.sub[0], start, func(e int) bool {
		if n.behind && e != pos {
			return false
		}
		end = e
		return true
	})
	if m.over() {
		return false
	}
	if n.kind == nLook {
		end = pos
		if n.neg {
			copy(m.caps, saved)
			return !found && k(pos)
		}
	}
	if found && k(end) {
		return true
	}
	copy(m.caps, saved)
	return false
}
