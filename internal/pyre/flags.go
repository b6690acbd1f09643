package pyre

import "unicode"

// inlineFlags parses (?flags) or (?flags-flags: after its "(?" and its
// first letter c, as Python's _parse_flags: global is true for (?flags),
// which sets them for the whole pattern.
func (p *parser) inlineFlags(c rune) (add, del flags, global bool, err error) {
	if c != '-' {
		for {
			f := flagOf[c]
			if !p.bytes && c == 'L' {
				return 0, 0, false, p.errorf("bad inline flags: cannot use 'L' flag with a str pattern")
			}
			if p.bytes && c == 'u' {
				return 0, 0, false, p.errorf("bad inline flags: cannot use 'u' flag with a bytes pattern")
			}
			add |= f
			if f&typeFlags != 0 && add&typeFlags != f {
				return 0, 0, false, p.errorf("bad inline flags: flags 'a', 'u' and 'L' are incompatible")
			}
			if !p.more() {
				return 0, 0, false, p.errorf("missing -, : or )")
			}
			c = p.src[p.pos]
			p.pos++
			if c == ')' || c == '-' || c == ':' {
				break
			}
			if flagOf[c] == 0 {
				if isAlpha(c) {
					return 0, 0, false, p.errAt(p.pos-1, "unknown flag")
				}
				return 0, 0, false, p.errAt(p.pos-1, "missing -, : or )")
			}
		}
	}
	if c == ')' {
		return add, 0, true, nil
	}
	if c == '-' {
		if !p.more() {
			return 0, 0, false, p.errorf("missing flag")
		}
		c = p.src[p.pos]
		p.pos++
		if flagOf[c] == 0 {
			if isAlpha(c) {
				return 0, 0, false, p.errAt(p.pos-1, "unknown flag")
			}
			return 0, 0, false, p.errAt(p.pos-1, "missing flag")
		}
		for {
			f := flagOf[c]
			if f&typeFlags != 0 {
				return 0, 0, false, p.errorf("bad inline flags: cannot turn off flags 'a', 'u' and 'L'")
			}
			del |= f
			if !p.more() {
				return 0, 0, false, p.errorf("missing :")
			}
			c = p.src[p.pos]
			p.pos++
			if c == ':' {
				break
			}
			if flagOf[c] == 0 {
				if isAlpha(c) {
					return 0, 0, false, p.errAt(p.pos-1, "unknown flag")
				}
				return 0, 0, false, p.errAt(p.pos-1, "missing :")
			}
		}
	}
	if add&del != 0 {
		return 0, 0, false, p.errAt(p.pos-1, "bad inline flags: flag turned on and off")
	}
	return add, del, false, nil
}

// dotnetFlags are the letters of regexp2's inline flags among f: the
// others (a, u, L, x) are the translation's business.
func dotnetFlags(f flags) string {
	s := ""
	if f&flagI != 0 {
		s += "i"
	}
	if f&flagM != 0 {
		s += "m"
	}
	if f&flagS != 0 {
		s += "s"
	}
	return s
}

func dashFlags(s string) string {
	if s == "" {
		return ""
	}
	return "-" + s
}

func isAlpha(c rune) bool { return unicode.IsLetter(c) }
