package pyre

import (
	"fmt"
	"strings"
)

// The translation of a Python pattern into regexp2's syntax (.NET's). It
// follows the rules of Python 3.11's re parser: what it accepts, what it
// refuses (with the same messages), the numbering of groups and the
// meaning of every construct. Each Python construct becomes one regexp2
// atom (wrapped in (?:...) where it takes several), so that a repeat
// applies to the whole of it.

// flags are Python's inline flags.
type flags uint8

const (
	flagI flags = 1 << iota // IGNORECASE
	flagL                   // LOCALE (bytes only: ASCII here)
	flagM                   // MULTILINE
	flagS                   // DOTALL
	flagU                   // UNICODE (str only: the default)
	flagX                   // VERBOSE
	flagA                   // ASCII
)

var flagOf = map[rune]flags{'i': flagI, 'L': flagL, 'm': flagM, 's': flagS, 'u': flagU, 'x': flagX, 'a': flagA}

const typeFlags = flagA | flagL | flagU

// Bounds of the translation: Python's largest repeat count (MAXREPEAT,
// its "no bound"), the deepest nesting of groups Python's recursive
// parser reaches on a default stack, and regexp2's largest count.
const (
	maxRepeat   = 1<<32 - 1
	maxNesting  = 400
	maxCount    = 1<<31 - 1
	maxGroups   = 1<<30 - 1
	unboundedHi = int64(maxRepeat)
)

// group is what the parser knows of a capturing group.
type group struct {
	closed bool
	lo, hi int64 // its width, once closed
}

type parser struct {
	src        []rune // the pattern; a bytes pattern has one rune a byte
	pos        int
	bytes      bool
	flags      flags // the global flags
	groups     []group
	names      map[string]int
	condRefs   map[int]int // groups named by number in conditionals: position
	lookbehind int         // -1, or the number of groups when the innermost lookbehind began
	// lits are the pattern's characters while it is nothing but
	// literals (complex false): Each finds those with strings.Index.
	lits    []rune
	complex bool
}

// SyntaxError is a pattern Python's re refuses, in Python's own words:
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

// token is the token of Python's tokenizer at i: a character, or a
// backslash and the character after it.
func (p *parser) token(i int) []rune {
	if p.src[i] == '\\' && i+1 < len(p.src) {
		return p.src[i : i+2]
	}
	return p.src[i : i+1]
}

// trailingEscape is Python's error for a pattern that ends in a lone
// backslash, which its tokenizer reports as soon as it reads that token:
// when it consumes the token before it, so before any error found there.
// err is returned otherwise.
func (p *parser) trailingEscape(err error) error {
	se, ok := err.(*SyntaxError)
	n := len(p.src)
	if !ok || n == 0 || p.src[n-1] != '\\' {
		return err
	}
	run := func(end int) int { // backslashes ending at end
		k := 0
		for end-k >= 0 && p.src[end-k] == '\\' {
			k++
		}
		return k
	}
	if run(n-1)%2 == 0 {
		return err
	}
	prev := n - 2 // the token before it: a character, or an escape
	if n >= 3 && run(n-3)%2 == 1 {
		prev = n - 3
	}
	if se.Pos != prev {
		return err
	}
	return &SyntaxError{Pattern: se.Pattern, Msg: "bad escape (end of pattern)", Pos: n - 1}
}

func (p *parser) errAt(pos int, format string, args ...any) error {
	return &SyntaxError{Pattern: p.pattern(), Msg: fmt.Sprintf(format, args...), Pos: pos}
}

func (p *parser) errorf(format string, args ...any) error {
	return p.errAt(p.pos, format, args...)
}

func (p *parser) pattern() string {
	if !p.bytes {
		return string(p.src)
	}
	b := make([]byte, len(p.src))
	for i, r := range p.src {
		b[i] = byte(r)
	}
	return string(b)
}

func (p *parser) more() bool { return p.pos < len(p.src) }

// peek is the next rune, or -1 at the end.
func (p *parser) peek() rune {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return -1
}

// eat consumes r if it comes next.
func (p *parser) eat(r rune) bool {
	if p.peek() == r {
		p.pos++
		return true
	}
	return false
}

// item is one atom of a sequence, translated, with its width in
// characters (hi is unboundedHi for no bound) and what Python's parser
// needs to know of it for a repeat after it.
type item struct {
	re     string
	lo, hi int64
	kind   itemKind
}

type itemKind uint8

const (
	itemOther  itemKind = iota
	itemAt              // an anchor: nothing to repeat
	itemRepeat          // a repeat: a second one is a "multiple repeat"
)

// alternation parses a|b|c up to a ")" or the end, under the scoped
// flags f.
func (p *parser) alternation(f flags, verbose bool, nested int) (string, int64, int64, error) {
	var parts []string
	var lo, hi int64 = unboundedHi, 0
	for {
		re, l, h, err := p.sequence(f, verbose, nested+1, nested == 0 && len(parts) == 0)
		if err != nil {
			return "", 0, 0, err
		}
		parts = append(parts, re)
		lo, hi = min(lo, l), max(hi, h)
		if !p.eat('|') {
			break
		}
		p.complex = true
		if nested == 0 {
			verbose = p.flags&flagX != 0
			f |= p.flags
		}
	}
	if len(parts) == 1 {
		return parts[0], lo, hi, nil
	}
	return strings.Join(parts, "|"), lo, hi, nil
}

// sequence parses the items of one branch. first: the start of the
// pattern's first branch, where global flags may stand.
func (p *parser) sequence(f flags, verbose bool, nested int, first bool) (string, int64, int64, error) {
	if nested > maxNesting {
		return "", 0, 0, p.errorf("too deeply nested (more than %d levels)", maxNesting)
	}
	var items []item
	for p.more() {
		start := p.pos
		c := p.src[p.pos]
		if c == '|' || c == ')' {
			break
		}
		p.pos++
		if verbose {
			if isVerboseSpace(c) {
				continue
			}
			if c == '#' {
				for p.more() && p.src[p.pos] != '\n' {
					p.pos++
				}
				p.eat('\n')
				continue
			}
		}
		switch c {
		case '\\':
			n := len(p.lits)
			it, err := p.escape(f)
			if len(p.lits) == n {
				p.complex = true
			}
			if err != nil {
				return "", 0, 0, err
			}
			items = append(items, it)
		case '[':
			p.complex = true
			it, err := p.class(f, start)
			if err != nil {
				return "", 0, 0, err
			}
			items = append(items, it)
		case '*', '+', '?', '{':
			p.complex = true
			var err error
			if items, err = p.repeat(items, c, start); err != nil {
				return "", 0, 0, err
			}
		case '.':
			p.complex = true
			items = append(items, item{re: ".", lo: 1, hi: 1})
		case '^':
			p.complex = true
			items = append(items, item{re: "^", kind: itemAt})
		case '$':
			p.complex = true
			items = append(items, item{re: "$", kind: itemAt})
		case '(':
			it, global, err := p.group(f, verbose, nested, start)
			if err != nil {
				return "", 0, 0, err
			}
			if global {
				if !first || len(items) > 0 {
					return "", 0, 0, p.errAt(start, "global flags not at the start of the expression")
				}
				verbose = p.flags&flagX != 0
				f |= p.flags
				continue
			}
			if it != nil {
				p.complex = true
				items = append(items, *it)
			}
		default:
			items = append(items, p.literal(c, f))
		}
	}
	var b strings.Builder
	var lo, hi int64
	for _, it := range items {
		b.WriteString(it.re)
		lo, hi = addWidth(lo, it.lo), addWidth(hi, it.hi)
	}
	return b.String(), lo, hi, nil
}

func isVerboseSpace(c rune) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// addWidth adds widths, saturating at Python's bound.
func addWidth(a, b int64) int64 { return min(a+b, unboundedHi) }

// mulWidth multiplies a width by a count, saturating.
func mulWidth(a, n int64) int64 {
	if a == 0 || n == 0 {
		return 0
	}
	if a >= unboundedHi/n {
		return unboundedHi
	}
	return a * n
}
