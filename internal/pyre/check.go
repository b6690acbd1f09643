package pyre

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// SyntaxError is a pattern Python's re refuses, with Python's own words:
// Msg is re.error's message ("nothing to repeat"), Pos the index (in
// characters) it names.
type SyntaxError struct {
	Pattern string
	Msg     string
	Pos     int
}

// Error names the pattern and gives Python's text.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("regular expression %q: %s", e.Pattern, e.Python())
}

// Python is the text of Python's re.error: "nothing to repeat at
// position 0".
func (e *SyntaxError) Python() string { return fmt.Sprintf("%s at position %d", e.Msg, e.Pos) }

// item kinds a sequence ends with, for what a repeat may follow.
const (
	kindNone   = iota // nothing yet (start, after | or an opening group)
	kindAnchor        // ^ $ \A \b \B \Z: nothing to repeat either
	kindItem
	kindRepeat
)

// checker walks a Python pattern as Python's parser does, only to find the
// errors Python reports; what it accepts still has to compile on RE2.
type checker struct {
	p      []rune
	i      int
	groups int            // capturing groups opened so far
	open   map[int]bool   // groups not yet closed
	names  map[string]int // named groups
	// flagsEnd is where the global flag groups at the very start end:
	// one anywhere else is an error.
	flagsEnd int
	// condRefs are the groups conditionals name by number, checked once
	// the whole pattern is read (refs[i] at condPos[i]).
	condRefs, condPos []int
}

// check returns the *SyntaxError Python's re.compile raises for pattern,
// or nil. Verbose patterns ((?x)) are not checked.
func check(pattern string) error {
	c := &checker{p: []rune(pattern), open: map[int]bool{}, names: map[string]int{}}
	if c.verbose() {
		return nil
	}
	// Python reads a backslash with the character after it, one token
	// ahead of the parser: a lone backslash at the end fails as soon as
	// the parser takes the token before it, and so wins over what the
	// parser would find from there on.
	end := len(c.p)
	if trailingBackslash(c.p) {
		c.p = c.p[:end-1]
	}
	msg, pos := c.alternation(0)
	if msg == "" {
		for i, g := range c.condRefs {
			if g > c.groups {
				msg, pos = fmt.Sprintf("invalid group reference %d", g), c.condPos[i]
				break
			}
		}
	}
	if len(c.p) < end && (msg == "" || c.i >= end-1) {
		msg, pos = "bad escape (end of pattern)", end-1
	}
	if msg != "" {
		return &SyntaxError{Pattern: pattern, Msg: msg, Pos: pos}
	}
	return nil
}

// trailingBackslash reports whether p ends with a backslash that escapes
// nothing.
func trailingBackslash(p []rune) bool {
	n := 0
	for i := len(p) - 1; i >= 0 && p[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// verbose reports whether the pattern turns on re.VERBOSE with an inline
// flag, where white space and # comments do not count.
func (c *checker) verbose() bool {
	s := string(c.p)
	for i := strings.Index(s, "(?"); i >= 0; {
		typed := 0
		for j := i + 2; j < len(s) && strings.IndexByte("aiLmsux-", s[j]) >= 0; j++ {
			if s[j] == 'x' {
				return true
			}
			if s[j] == 'a' || s[j] == 'u' {
				typed++
			}
			if s[j] == 'L' || s[j] == '-' || typed > 1 {
				break // Python fails before it reads an x
			}
		}
		next := strings.Index(s[i+2:], "(?")
		if next < 0 {
			break
		}
		i += 2 + next
	}
	return false
}

func (c *checker) peek(off int) rune {
	if c.i+off < len(c.p) {
		return c.p[c.i+off]
	}
	return -1
}

// alternation reads branches separated by | up to a ")" (depth > 0) or
// the end, and returns an error message and its position, if any.
func (c *checker) alternation(depth int) (string, int) {
	for {
		if msg, pos := c.sequence(depth); msg != "" {
			return msg, pos
		}
		if c.peek(0) != '|' {
			return "", 0
		}
		c.i++
	}
}

// sequence reads items up to "|", ")" or the end.
func (c *checker) sequence(depth int) (string, int) {
	last := kindNone
	for c.i < len(c.p) {
		start := c.i
		switch r := c.p[c.i]; r {
		case '|':
			return "", 0
		case ')':
			if depth == 0 {
				return "unbalanced parenthesis", start
			}
			return "", 0
		case '(':
			k, msg, pos := c.group(depth, last)
			if msg != "" {
				return msg, pos
			}
			if k != kindNone {
				last = k
			}
		case '[':
			if msg, pos := c.set(); msg != "" {
				return msg, pos
			}
			last = kindItem
		case '\\':
			k, msg, pos := c.escape(false)
			if msg != "" {
				return msg, pos
			}
			last = k
		case '^', '$':
			c.i++
			last = kindAnchor
		case '*', '+', '?', '{':
			n, lo, hi, ok := c.repeat()
			if !ok { // "{" that is not a repeat is a literal
				c.i++
				last = kindItem
				continue
			}
			c.i += n // Python reads the whole quantifier first
			switch last {
			case kindNone, kindAnchor:
				return "nothing to repeat", start
			case kindRepeat:
				return "multiple repeat", start
			}
			if lo >= 0 && hi >= 0 && hi < lo {
				return "min repeat greater than max repeat", start + 1
			}
			if r := c.peek(0); r == '?' || r == '+' { // lazy, possessive
				c.i++
			}
			last = kindRepeat
		default:
			c.i++
			last = kindItem
		}
	}
	return "", 0
}

// repeat reads the quantifier at c.i without moving: its length and, for
// {m,n}, its bounds (-1: unbounded). ok is false for a "{" that is not a
// quantifier ("{", "{}", "{x}", "{1").
func (c *checker) repeat() (n, lo, hi int, ok bool) {
	if c.p[c.i] != '{' {
		return 1, -1, -1, true
	}
	j := c.i + 1
	if j < len(c.p) && c.p[j] == '}' {
		return 0, 0, 0, false
	}
	digits := func() (int, bool) {
		k := j
		for j < len(c.p) && c.p[j] >= '0' && c.p[j] <= '9' {
			j++
		}
		if j == k {
			return -1, false
		}
		v, err := strconv.Atoi(string(c.p[k:j]))
		if err != nil {
			v = int(^uint(0) >> 1)
		}
		return v, true
	}
	lo, _ = digits()
	hi = lo
	if j < len(c.p) && c.p[j] == ',' {
		j++
		hi, _ = digits()
	}
	if j >= len(c.p) || c.p[j] != '}' {
		return 0, 0, 0, false
	}
	return j + 1 - c.i, lo, hi, true
}

// group reads "(...)" from its "(": a capturing group, (?:...),
// lookaround, named and atomic groups, conditionals, comments and inline
// flags. A comment or a global flag group adds no item (kindNone).
func (c *checker) group(depth, last int) (int, string, int) {
	start := c.i
	c.i++
	capture := 0
	if c.peek(0) == '?' {
		c.i++
		r := c.peek(0)
		if r < 0 {
			return 0, "unexpected end of pattern", c.i
		}
		c.i++
		switch {
		case r == ':', r == '=', r == '!', r == '>':
		case r == '<':
			switch n := c.peek(0); n {
			case '=', '!':
				c.i++
			case -1:
				return 0, "unexpected end of pattern", c.i
			default:
				return 0, "unknown extension ?<" + string(n), start + 1
			}
		case r == 'P':
			ref, msg, pos := c.pGroup(start)
			if msg != "" || ref {
				return kindItem, msg, pos
			}
			capture = c.groups
		case r == '#':
			for c.i < len(c.p) && c.p[c.i] != ')' {
				c.i++
			}
			if c.i >= len(c.p) {
				return 0, "missing ), unterminated comment", start
			}
			c.i++
			return kindNone, "", 0
		case r == '(':
			return c.conditional(start)
		case strings.ContainsRune("aiLmsux-", r):
			global, msg, pos := c.flags(r)
			if msg != "" {
				return 0, msg, pos
			}
			if global {
				if depth > 0 || start != c.flagsEnd {
					return 0, "global flags not at the start of the expression", start
				}
				c.flagsEnd = c.i
				return kindNone, "", 0
			}
		case r == '\\' && c.i < len(c.p):
			return 0, "unknown extension ?\\" + string(c.p[c.i]), start + 1
		default:
			return 0, "unknown extension ?" + string(r), start + 1
		}
	} else {
		c.groups++
		capture = c.groups
	}
	if capture > 0 {
		c.open[capture] = true
	}
	_ = last
	if msg, pos := c.alternation(1); msg != "" {
		return 0, msg, pos
	}
	if c.peek(0) != ')' {
		return 0, "missing ), unterminated subpattern", start
	}
	c.i++
	delete(c.open, capture)
	return kindItem, "", 0
}

// pGroup reads what follows "(?P": "<name>" (a named group, whose body
// follows) or "=name)" (a reference to one: ref).
func (c *checker) pGroup(start int) (ref bool, msg string, pos int) {
	r := c.peek(0)
	if r != '<' && r != '=' {
		if r < 0 {
			return false, "unexpected end of pattern", c.i
		}
		return false, "unknown extension ?P" + string(r), start + 1
	}
	c.i++
	end := byte('>')
	if r == '=' {
		end = ')'
	}
	from := c.i
	for c.i < len(c.p) && c.p[c.i] != rune(end) {
		c.i++
	}
	name := string(c.p[from:c.i])
	switch {
	case c.i >= len(c.p) && name == "":
		return false, "missing group name", c.i
	case c.i >= len(c.p):
		return false, fmt.Sprintf("missing %c, unterminated name", end), from
	case name == "":
		return false, "missing group name", c.i
	case !identifier(name):
		return false, fmt.Sprintf("bad character in group name %s", pyQuote(name)), from
	}
	c.i++
	g, known := c.names[name]
	if r == '=' {
		switch {
		case !known:
			return false, fmt.Sprintf("unknown group name %s", pyQuote(name)), from
		case c.open[g]:
			return false, "cannot refer to an open group", from
		}
		return true, "", 0
	}
	c.groups++
	if known {
		return false, fmt.Sprintf("redefinition of group name %s as group %d; was group %d", pyQuote(name), c.groups, g), from
	}
	c.names[name] = c.groups
	return false, "", 0
}

// flags reads inline flags after "(?", from their first character r
// (already read): "(?aiLmsux)" (global) or "(?flags-flags:...)", leaving
// c.i after the ":". Positions are Python's: after the flag at fault, or
// at the character that cannot be there.
func (c *checker) flags(r rune) (global bool, msg string, pos int) {
	on := map[rune]bool{}
	types := func(f rune) bool { return f == 'a' || f == 'u' || f == 'L' }
	if r != '-' {
		for {
			if r == 'L' {
				return false, "bad inline flags: cannot use 'L' flag with a str pattern", c.i
			}
			if types(r) && (on['a'] || on['u']) && !on[r] {
				return false, "bad inline flags: flags 'a', 'u' and 'L' are incompatible", c.i
			}
			on[r] = true
			r = c.peek(0)
			if r < 0 {
				return false, "missing -, : or )", c.i
			}
			c.i++
			if r == ')' || r == '-' || r == ':' {
				break
			}
			if !strings.ContainsRune("aiLmsux", r) {
				return false, flagMsg(r, "missing -, : or )"), c.i - 1
			}
		}
	}
	if r == ')' {
		return true, "", 0
	}
	if r == '-' {
		r = c.peek(0)
		if r < 0 {
			return false, "missing flag", c.i
		}
		c.i++
		if !strings.ContainsRune("aiLmsux", r) {
			return false, flagMsg(r, "missing flag"), c.i - 1
		}
		off := map[rune]bool{}
		for {
			if types(r) {
				return false, "bad inline flags: cannot turn off flags 'a', 'u' and 'L'", c.i
			}
			off[r] = true
			r = c.peek(0)
			if r < 0 {
				return false, "missing :", c.i
			}
			c.i++
			if r == ':' {
				break
			}
			if !strings.ContainsRune("aiLmsux", r) {
				return false, flagMsg(r, "missing :"), c.i - 1
			}
		}
		for f := range off {
			if on[f] {
				return false, "bad inline flags: flag turned on and off", c.i - 1
			}
		}
	}
	return false, "", 0
}

// flagMsg is Python's complaint about r among flags: a letter is an
// unknown flag, anything else is what was missing.
func flagMsg(r rune, missing string) string {
	if unicode.IsLetter(r) {
		return "unknown flag"
	}
	return missing
}

// conditional reads "(?(name)yes|no)" after its "(?(": the name or
// number of a group, then at most two branches.
func (c *checker) conditional(start int) (int, string, int) {
	from := c.i
	for c.i < len(c.p) && c.p[c.i] != ')' {
		c.i++
	}
	name := string(c.p[from:c.i])
	switch {
	case c.i >= len(c.p) && name == "":
		return 0, "missing group name", c.i
	case c.i >= len(c.p):
		return 0, "missing ), unterminated name", from
	case name == "":
		return 0, "missing group name", c.i
	}
	c.i++
	if identifier(name) {
		if _, ok := c.names[name]; !ok {
			return 0, fmt.Sprintf("unknown group name %s", pyQuote(name)), from
		}
	} else {
		g, err := strconv.Atoi(name)
		switch {
		case err != nil || g < 0 || strings.ContainsAny(name, "+- "):
			return 0, fmt.Sprintf("bad character in group name %s", pyQuote(name)), from
		case g == 0:
			return 0, "bad group number", from
		}
		c.condRefs, c.condPos = append(c.condRefs, g), append(c.condPos, from)
	}
	if msg, pos := c.sequence(1); msg != "" {
		return 0, msg, pos
	}
	if c.peek(0) == '|' {
		c.i++
		if msg, pos := c.sequence(1); msg != "" {
			return 0, msg, pos
		}
		if c.peek(0) == '|' {
			return 0, "conditional backref with more than two branches", c.i
		}
	}
	if c.peek(0) != ')' {
		return 0, "missing ), unterminated subpattern", start
	}
	c.i++
	return kindItem, "", 0
}

// set reads "[...]" from its "[".
func (c *checker) set() (string, int) {
	start := c.i
	c.i++
	if c.peek(0) == '^' {
		c.i++
	}
	first := true
	for {
		if c.i >= len(c.p) {
			return "unterminated character set", start
		}
		if c.p[c.i] == ']' && !first {
			c.i++
			return "", 0
		}
		first = false
		loFrom := c.i
		lo, loOK, msg, pos := c.setMember()
		if msg != "" {
			return msg, pos
		}
		if c.peek(0) != '-' {
			continue
		}
		c.i++
		if c.i >= len(c.p) {
			return "unterminated character set", start
		}
		if c.p[c.i] == ']' { // a "-" before "]" is a literal
			c.i++
			return "", 0
		}
		hiFrom := c.i
		hi, hiOK, msg, pos := c.setMember()
		if msg != "" {
			return msg, pos
		}
		if !loOK || !hiOK || hi < lo {
			// Python names the two tokens (an escape's is its backslash
			// and one character) and counts back from the end of hi.
			this, that := token(c.p, loFrom), token(c.p, hiFrom)
			return "bad character range " + this + "-" + that, c.i - len([]rune(this)) - 1 - len([]rune(that))
		}
	}
}

// setMember reads one member of a set: a character (ok, with its code)
// or a class escape (\d, \w, ...: not ok for a range).
func (c *checker) setMember() (rune, bool, string, int) {
	if c.p[c.i] != '\\' {
		c.i++
		return c.p[c.i-1], true, "", 0
	}
	k, msg, pos := c.escape(true)
	if msg != "" {
		return 0, false, msg, pos
	}
	if k < 0 {
		return 0, false, "", 0
	}
	return rune(k), true, "", 0
}

// escape reads a backslash escape. Outside a set it returns the kind of
// item; inside one (inSet) the character's code, or -1 for a class.
func (c *checker) escape(inSet bool) (int, string, int) {
	s := c.i
	c.i++
	r := c.peek(0)
	if r < 0 {
		return 0, "bad escape (end of pattern)", s
	}
	c.i++
	item := func(code rune) (int, string, int) {
		if inSet {
			return int(code), "", 0
		}
		return kindItem, "", 0
	}
	switch {
	case strings.ContainsRune("dDsSwW", r):
		if inSet {
			return -1, "", 0
		}
		return kindItem, "", 0
	case strings.ContainsRune("AbBZ", r) && !inSet:
		return kindAnchor, "", 0
	case r == 'b':
		return item('\b')
	case strings.ContainsRune("afnrtv", r):
		return item(map[rune]rune{'a': 7, 'f': 12, 'n': 10, 'r': 13, 't': 9, 'v': 11}[r])
	case r == 'x' || r == 'u' || r == 'U':
		width := map[rune]int{'x': 2, 'u': 4, 'U': 8}[r]
		from := c.i
		for c.i < len(c.p) && c.i-from < width && isHexRune(c.p[c.i]) {
			c.i++
		}
		esc := string(c.p[s:c.i])
		if c.i-from < width {
			return 0, "incomplete escape " + esc, s
		}
		v, _ := strconv.ParseUint(string(c.p[from:c.i]), 16, 64)
		if v > unicode.MaxRune {
			return 0, "bad escape " + esc, s
		}
		return item(rune(v))
	case r == 'N':
		if c.peek(0) != '{' {
			return 0, "missing {", c.i
		}
		for c.i < len(c.p) && c.p[c.i] != '}' {
			c.i++
		}
		if c.i >= len(c.p) {
			return 0, "missing }, unterminated name", s + 3
		}
		c.i++
		return item(0xFFFD) // the name is not checked
	case r >= '0' && r <= '9':
		return c.digitEscape(s, r, inSet)
	case r < 128 && unicode.IsLetter(r):
		return 0, "bad escape " + string(c.p[s:c.i]), s
	}
	return item(r)
}

// digitEscape reads \0, octal escapes and group references (outside a
// set) after the backslash at s and its first digit r.
func (c *checker) digitEscape(s int, r rune, inSet bool) (int, string, int) {
	octal := func(r rune) bool { return r >= '0' && r <= '7' }
	if r == '0' || inSet {
		if !octal(r) {
			return 0, "bad escape " + string(c.p[s:c.i]), s
		}
		for n := 0; n < 2 && octal(c.peek(0)); n++ {
			c.i++
		}
		v, _ := strconv.ParseUint(string(c.p[s+1:c.i]), 8, 32)
		if v > 0o377 {
			return 0, fmt.Sprintf("octal escape value %s outside of range 0-0o377", string(c.p[s:c.i])), s
		}
		if inSet {
			return int(v), "", 0
		}
		return kindItem, "", 0
	}
	if d := c.peek(0); d >= '0' && d <= '9' {
		c.i++
		if octal(r) && octal(d) && octal(c.peek(0)) {
			c.i++
			v, _ := strconv.ParseUint(string(c.p[s+1:c.i]), 8, 32)
			if v > 0o377 {
				return 0, fmt.Sprintf("octal escape value %s outside of range 0-0o377", string(c.p[s:c.i])), s
			}
			return kindItem, "", 0
		}
	}
	g, _ := strconv.Atoi(string(c.p[s+1 : c.i]))
	if g > c.groups {
		return 0, fmt.Sprintf("invalid group reference %d", g), s + 1
	}
	if c.open[g] {
		return 0, "cannot refer to an open group", s
	}
	return kindItem, "", 0
}

// token is Python's token at i: a character, or a backslash with the
// character after it.
func token(p []rune, i int) string {
	if p[i] == '\\' && i+1 < len(p) {
		return string(p[i : i+2])
	}
	return string(p[i])
}

func isHexRune(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F'
}

// identifier is Python's str.isidentifier for the names of groups.
func identifier(s string) bool {
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || i > 0 && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r))) {
			return false
		}
	}
	return s != ""
}

// pyQuote is Python's repr of a short string: single quotes unless it
// holds one.
func pyQuote(s string) string {
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", `\'`) + "'"
}
