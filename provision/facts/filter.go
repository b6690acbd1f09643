package facts

import "strings"

// Filter returns the facts whose names match one of patterns, as
// ansible-core 2.14's setup module applies its filter parameter
// (AnsibleFactCollector._filter): patterns are Python fnmatch patterns
// matched against the whole name as setup returns it, ansible_os_family
// for os_family (gather_subset and module_setup under their own names,
// see Unprefixed); a pattern that does not start with "ansible_",
// "facter" or "ohai" also matches as "ansible_" + pattern, so "os*" is
// "ansible_os*"; an empty pattern matches every fact. No patterns at all
// means no filter: facts itself is returned.
//
// Only the top-level names are filtered, never keys inside a fact.
// Matching is case-sensitive, as fnmatch is on POSIX; "*" and "?" match
// any character, "[seq]" and "[!seq]" a character in or out of seq
// (ranges "a-z"; a "]" first in seq is literal; a "[" without a closing
// "]" is literal), and a backslash is an ordinary character. Filter
// after Subset: Ansible filters gather_subset and module_setup too.
//
// facts is not changed; values are shared, not copied.
func Filter(facts map[string]any, patterns []string) map[string]any {
	if len(patterns) == 0 {
		return facts
	}
	var globs []glob
	for _, p := range patterns {
		if p == "" {
			return facts
		}
		globs = append(globs, compileGlob(p))
		if !strings.HasPrefix(p, "ansible_") && !strings.HasPrefix(p, "facter") && !strings.HasPrefix(p, "ohai") {
			globs = append(globs, compileGlob("ansible_"+p))
		}
	}
	out := make(map[string]any, len(facts))
	for k, v := range facts {
		name := k
		if !Unprefixed(k) {
			name = "ansible_" + k
		}
		for _, g := range globs {
			if g.match(name) {
				out[k] = v
				break
			}
		}
	}
	return out
}

// glob is a compiled fnmatch pattern.
type glob []globItem

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

// compileGlob follows Python 3.11's fnmatch.translate.
func compileGlob(pat string) glob {
	p := []rune(pat)
	var g glob
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

// match reports whether the whole of name matches: the usual wildcard
// walk, going back to the last "*" on a mismatch.
func (g glob) match(name string) bool {
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
