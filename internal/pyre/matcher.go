package pyre

import (
	"errors"
	"regexp"
	"unicode/utf8"
)

// Matcher is a compiled Python pattern that may need what RE2 lacks
// (backreferences, lookahead and lookbehind, atomic groups, possessive
// repeats, conditionals, the verbose flag). CompileMatcher runs a pattern
// on RE2 when RE2 can, in linear time, and on a backtracking matcher
// with Python's semantics when it cannot; that one gives up with
// ErrBacktrackLimit past a bounded number of steps. A Matcher is safe for
// concurrent use.
type Matcher interface {
	// Find returns the indices of the leftmost match in b and of its
	// groups (as regexp's FindSubmatchIndex), nil when there is none.
	Find(b []byte) ([]int, error)
	// NumSubexp is the number of groups.
	NumSubexp() int
	// SubexpIndex is the number of the group named name, -1 for none.
	SubexpIndex(name string) int
}

// errNeedsBacktracking marks the translation errors of constructs the
// backtracking matcher runs.
var errNeedsBacktracking = errors.New("needs backtracking")

// CompileMatcher compiles pattern as Compile does, falling back to the
// backtracking matcher for a pattern RE2 refuses for lack of
// backtracking.
func CompileMatcher(pattern string, o Options) (Matcher, error) {
	re, err := Compile(pattern, o)
	if err == nil {
		return re2Matcher{re}, nil
	}
	if !errors.Is(err, errNeedsBacktracking) {
		return nil, err
	}
	return compileBacktrack(pattern, o)
}

// compileBacktrack compiles pattern for the backtracking matcher.
func compileBacktrack(pattern string, o Options) (*btRegexp, error) {
	root, p, err := parseBacktrack(pattern, flagSet{i: o.IgnoreCase, m: o.Multiline, s: o.DotAll})
	if err != nil {
		return nil, err
	}
	return &btRegexp{root: root, ncap: p.ncap, names: p.names, limit: btLimit, anchored: startsAnchored(root)}, nil
}

// re2Matcher is a Matcher on Go's regexp.
type re2Matcher struct{ *regexp.Regexp }

func (m re2Matcher) Find(b []byte) ([]int, error) { return m.FindSubmatchIndex(b), nil }

// btRegexp is a pattern for the backtracking matcher.
type btRegexp struct {
	root     *node
	ncap     int
	names    map[string]int
	limit    int
	anchored bool // can only match at the start of the text
}

func (re *btRegexp) NumSubexp() int { return re.ncap }

func (re *btRegexp) SubexpIndex(name string) int {
	if i, ok := re.names[name]; ok {
		return i
	}
	return -1
}

// Find searches b as Python's re.search: the first position where the
// pattern matches, its first match there.
func (re *btRegexp) Find(b []byte) ([]int, error) {
	m := &btState{in: b, caps: make([]int, 2*(re.ncap+1)), limit: re.limit}
	for start := 0; start <= len(b); {
		for i := range m.caps {
			m.caps[i] = -1
		}
		end := -1
		if m.match(re.root, start, func(e int) bool { end = e; return true }) {
			m.caps[0], m.caps[1] = start, end
			return m.caps, nil
		}
		if m.over() {
			return nil, ErrBacktrackLimit
		}
		if start == len(b) || re.anchored {
			break
		}
		_, w := utf8.DecodeRune(b[start:])
		start += w
	}
	return nil, nil
}

// startsAnchored reports whether every match of n starts at the start of
// the text (\A, or ^ without MULTILINE, first).
func startsAnchored(n *node) bool {
	switch n.kind {
	case nBegin:
		return true
	case nCaret:
		return !n.multi
	case nConcat:
		return len(n.sub) > 0 && startsAnchored(n.sub[0])
	case nGroup, nAtomic:
		return startsAnchored(n.sub[0])
	case nAlt:
		for _, s := range n.sub {
			if !startsAnchored(s) {
				return false
			}
		}
		return true
	}
	return false
}
