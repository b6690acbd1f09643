// Package fnmatch is Python's fnmatch: shell-style patterns ("*", "?",
// "[seq]", "[!seq]") matched against a whole name, as Ansible matches
// host patterns, fact filters and file globs. A backslash is an ordinary
// character. It imports nothing of tender's.
package fnmatch

// Match reports whether name matches pat (Compile(pat).Match(name)).
func Match(pat, name string) bool { return Compile(pat).Match(name) }

// Pattern is a compiled pattern.
type Pattern []globItem

// globItem is "*" (star), "?" (any), a literal or a bracket expression.
type globItem struct {
	star, any bool
	lit       rune
	set       *charSet
}

// charSet is a bracket expression: members and ranges, maybe negated.
type charSet struct {
	negate bool
	ranges [][2]rune // inclusive; an empty range (z-a) matches nothing
}

func (c *charSet) has(r rune) bool {
	for _, g := range c.ranges {
		if g[0] <= r && r <= g[1] {
			return !c.negate
		}
	}
	return c.negate
}

func (it globItem) matches(r rune) bool {
	switch {
	case it.any:
		return true
	case it.set != nil:
		return it.set.has(r)
	}
	return !it.star && it.lit == r
}

// Compile reads pat as Python 3.11's fnmatch.translate does. Every
// text is a pattern: a "[" without its "]" is literal.
func Compile(pat string) Pattern {
	p := []rune(pat)
	var g Pattern
	for i := 0; i < len(p); {
		c := p[i]
		i++
		switch c {
		case '*':
			if len(g) == 0 || !g[len(g)-1].star {
				g = append(g, globItem{star: true})
			}
		case '?':
			g = append(g, globItem{any: true})
		case '[':
			j := i
			if j < len(p) && p[j] == '!' {
				j++
			}
			if j < len(p) && p[j] == ']' {
				j++
			}
			for j < len(p) && p[j] != ']' {
				j++
			}
			if j >= len(p) {
				g = append(g, globItem{lit: '['})
				break
			}
			g = append(g, globItem{set: parseSet(p[i:j])})
			i = j + 1
		default:
			g = append(g, globItem{lit: c})
		}
	}
	return g
}

// parseSet reads the inside of a bracket expression: a leading "!"
// negates; "a-z" is a range unless its "-" is the first character (after
// the "!") or the last; the character after a range starts no new one
// with a "-" right after it ("a-c-e" is a to c, "-" and "e").
func parseSet(s []rune) *charSet {
	cs := &charSet{}
	if len(s) > 0 && s[0] == '!' {
		cs.negate = true
		s = s[1:]
	}
	for k := 0; k < len(s); k++ {
		if k+2 < len(s) && s[k+1] == '-' {
			cs.ranges = append(cs.ranges, [2]rune{s[k], s[k+2]})
			k += 2
			continue
		}
		cs.ranges = append(cs.ranges, [2]rune{s[k], s[k]})
	}
	return cs
}

// Match reports whether the whole of name matches, case-sensitive (as
// fnmatchcase, and fnmatch on POSIX): the usual wildcard walk, going
// back to the last "*" on a mismatch, in time bounded by the product of
// the two lengths.
func (g Pattern) Match(name string) bool {
	s := []rune(name)
	gi, si := 0, 0
	starG, starS := -1, 0
	for si < len(s) {
		switch {
		case gi < len(g) && g[gi].star:
			starG, starS = gi, si
			gi++
		case gi < len(g) && g[gi].matches(s[si]):
			gi++
			si++
		case starG >= 0:
			starS++
			gi, si = starG+1, starS
		default:
			return false
		}
	}
	for gi < len(g) && g[gi].star {
		gi++
	}
	return gi == len(g)
}
