// Package pyre runs Python regular expressions (the re module Ansible's
// modules use) on Go's RE2 engine: it translates the syntax that differs,
// refuses with a clear message what RE2 cannot do (Compile), or runs
// those patterns on a bounded backtracking matcher of its own with
// Python's semantics (CompileMatcher), and expands Python's replacement
// templates (\1, \g<name>). It imports nothing of tender's.
package pyre

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Options are the flags a pattern is compiled with.
type Options struct {
	// OneLine: the pattern is matched against one line that keeps its
	// "\n" (lineinfile, blockinfile), and $ means what Python's does there.
	OneLine    bool
	Multiline  bool // re.MULTILINE
	DotAll     bool // re.DOTALL
	IgnoreCase bool // re.IGNORECASE
}

// Python's re and Go's regexp (RE2) share most of their syntax. A pattern
// Python's re refuses fails with a *SyntaxError carrying Python's message
// ("nothing to repeat at position 0"). Compile translates what differs and
// refuses, with a clear message, what RE2 cannot do at all:
//
//   - lookahead and lookbehind ((?=, (?!, (?<=, (?<!) and backreferences
//     inside a pattern (\1, (?P=name)) are errors: RE2 has no backtracking;
//   - \Z (end of text) becomes \z; {,n} becomes {0,n}; (?#...) comments
//     are dropped; the flags a and u are dropped (Go's classes are ASCII,
//     as Python's on bytes), x and L are refused;
//   - Python's $ (without MULTILINE) matches at the end and before a last
//     "\n". Outside a class it becomes (?m:$) when the pattern is matched
//     against one line that keeps its "\n" (lineinfile, blockinfile),
//     which is the same there, and (?:\n?\z) on a whole text, which
//     matches where Python's does but takes that last "\n" into the match.
//
// Left as they are: Python's \d, \w, \s on text are Unicode-aware and
// Go's are ASCII.
func Compile(pattern string, o Options) (*regexp.Regexp, error) {
	if err := check(pattern); err != nil {
		return nil, err // Python refuses it: its own words (*SyntaxError)
	}
	dollar := "$"
	switch {
	case o.OneLine:
		dollar = "(?m:$)"
	case !o.Multiline && !Multiline(pattern):
		dollar = `(?:\n?\z)`
	}
	t, err := translate(pattern, dollar)
	if err != nil {
		return nil, err
	}
	flags := ""
	if o.IgnoreCase {
		flags += "i"
	}
	if o.Multiline {
		flags += "m"
	}
	if o.DotAll {
		flags += "s"
	}
	if flags != "" {
		t = "(?" + flags + ")" + t
	}
	re, err := regexp.Compile(t)
	if err != nil {
		return nil, fmt.Errorf("regular expression %q: %v", pattern, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return re, nil
}

// Multiline reports whether a Python pattern turns MULTILINE on with a
// leading inline flag group such as (?m) or (?im).
func Multiline(pattern string) bool {
	if !strings.HasPrefix(pattern, "(?") {
		return false
	}
	end := strings.IndexByte(pattern, ')')
	if end < 0 {
		return false
	}
	flags := pattern[2:end]
	return strings.Trim(flags, "aiLmsux") == "" && strings.Contains(flags, "m")
}

func translate(p, dollar string) (string, error) {
	unsupported := func(what string) error {
		return unsupportedError(fmt.Sprintf("regular expression %q uses %s, which Go's RE2 regular expressions (no backtracking) do not support", p, what))
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			n := p[i+1]
			switch {
			case n == 'Z':
				b.WriteString(`\z`)
			case n >= '1' && n <= '9':
				return "", unsupported("a backreference (\\" + string(n) + ")")
			default:
				b.WriteByte(c)
				b.WriteByte(n)
			}
			i++
		case (c == '*' || c == '+' || c == '?') && strings.HasPrefix(p[i+1:], "+"):
			return "", unsupported("a possessive repeat (" + p[i:i+2] + ")")
		case c == '[':
			j := classEnd(p, i)
			b.WriteString(p[i:j])
			i = j - 1
		case c == '$':
			b.WriteString(dollar)
		case c == '{' && strings.HasPrefix(p[i:], "{,"):
			b.WriteString("{0")
		case c == '(' && strings.HasPrefix(p[i:], "(?"):
			rest := p[i+2:]
			switch {
			case strings.HasPrefix(rest, "="), strings.HasPrefix(rest, "!"):
				return "", unsupported("a lookahead ((?" + rest[:1] + "...)")
			case strings.HasPrefix(rest, "<="), strings.HasPrefix(rest, "<!"):
				return "", unsupported("a lookbehind ((?" + rest[:2] + "...)")
			case strings.HasPrefix(rest, "P="):
				return "", unsupported("a backreference ((?P=...))")
			case strings.HasPrefix(rest, "#"):
				end := strings.IndexByte(rest, ')')
				if end < 0 {
					return "", fmt.Errorf("regular expression %q: missing ), unterminated comment", p)
				}
				i += 2 + end
				continue
			case strings.HasPrefix(rest, "("):
				return "", unsupported("a conditional group ((?(...)...))")
			case strings.HasPrefix(rest, ">"):
				return "", unsupported("an atomic group ((?>...))")
			}
			// inline flags: (?aiLmsux) or (?flags:...)
			k := 0
			for k < len(rest) && strings.IndexByte("aiLmsux-", rest[k]) >= 0 {
				k++
			}
			if k > 0 && k < len(rest) && (rest[k] == ')' || rest[k] == ':') {
				flags := rest[:k]
				if strings.ContainsAny(flags, "xL") {
					return "", unsupported("the flag x or L")
				}
				flags = strings.NewReplacer("a", "", "u", "").Replace(flags)
				if flags == "" || flags == "-" {
					if rest[k] == ')' {
						i += 2 + k
						continue
					}
					b.WriteString("(?:")
				} else {
					b.WriteString("(?" + flags + string(rest[k]))
				}
				i += 2 + k
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// unsupportedError is Compile's error for a construct RE2 lacks: the
// backtracking matcher (CompileMatcher) runs it.
type unsupportedError string

func (e unsupportedError) Error() string        { return string(e) }
func (e unsupportedError) Is(target error) bool { return target == errNeedsBacktracking }

// classEnd returns the index just past the character class opening at
// p[i] ('['), where a ']' right after '[' or '[^' is literal.
func classEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && p[j] == '^' {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for j < len(p) {
		switch p[j] {
		case '\\':
			j++
		case ']':
			return j + 1
		}
		j++
	}
	return len(p)
}

// Template is a Python re replacement template (re.sub's repl,
// Match.expand's template) parsed once: \1 .. \99, \g<n>, \g<name>, the
// escapes \n \t \r \f \v \a \b \\ and octal \0nn. An unknown escape of an
// ASCII letter is an error, as in Python; any other keeps its backslash.
type Template struct {
	parts []tplPart
}

type tplPart struct {
	lit   []byte
	group int // -1: a literal
}

// Groups is what a template needs to know of its pattern's groups:
// *regexp.Regexp and Matcher have it.
type Groups interface {
	NumSubexp() int
	SubexpIndex(name string) int
}

// ParseTemplate parses t for matches of re.
func ParseTemplate(t string, re Groups) (*Template, error) {
	out := &Template{}
	var lit []byte
	flush := func() {
		if len(lit) > 0 {
			out.parts = append(out.parts, tplPart{lit: lit, group: -1})
			lit = nil
		}
	}
	group := func(n int) error {
		if n > re.NumSubexp() {
			return fmt.Errorf("invalid group reference %d in %q", n, t)
		}
		flush()
		out.parts = append(out.parts, tplPart{group: n})
		return nil
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c != '\\' {
			lit = append(lit, c)
			continue
		}
		if i+1 == len(t) {
			return nil, fmt.Errorf("bad escape (end of pattern) in %q", t)
		}
		i++
		c = t[i]
		switch {
		case c == 'g':
			if i+1 >= len(t) || t[i+1] != '<' {
				return nil, fmt.Errorf("missing < in %q", t)
			}
			end := strings.IndexByte(t[i+2:], '>')
			if end < 0 {
				return nil, fmt.Errorf("missing >, unterminated name in %q", t)
			}
			name := t[i+2 : i+2+end]
			n, err := strconv.Atoi(name)
			if err != nil {
				if n = re.SubexpIndex(name); n < 0 {
					return nil, fmt.Errorf("unknown group name '%s' in %q", name, t)
				}
			}
			if err := group(n); err != nil {
				return nil, err
			}
			i += 2 + end
		case c == '0':
			v, k := 0, 0
			for k < 2 && i+1 < len(t) && t[i+1] >= '0' && t[i+1] <= '7' {
				v = v*8 + int(t[i+1]-'0')
				i++
				k++
			}
			lit = append(lit, byte(v))
		case c >= '1' && c <= '9':
			n := int(c - '0')
			if i+1 < len(t) && t[i+1] >= '0' && t[i+1] <= '9' {
				if c <= '7' && t[i+1] <= '7' && i+2 < len(t) && t[i+2] >= '0' && t[i+2] <= '7' {
					v, _ := strconv.ParseUint(t[i:i+3], 8, 16)
					lit = append(lit, byte(v))
					i += 2
					continue
				}
				n = n*10 + int(t[i+1]-'0')
				i++
			}
			if err := group(n); err != nil {
				return nil, err
			}
		default:
			if e, ok := pyEscapes[c]; ok {
				lit = append(lit, e)
			} else if (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
				return nil, fmt.Errorf("bad escape \\%c in %q", c, t)
			} else {
				lit = append(lit, '\\', c)
			}
		}
	}
	flush()
	return out, nil
}

var pyEscapes = map[byte]byte{'n': '\n', 't': '\t', 'r': '\r', 'f': '\f', 'v': '\v', 'a': '\a', 'b': '\b', '\\': '\\'}

// Expand appends the template filled with a match of src (m from
// FindSubmatchIndex) to dst; a group that did not take part is empty.
func (t *Template) Expand(dst, src []byte, m []int) []byte {
	for _, p := range t.parts {
		if p.group < 0 {
			dst = append(dst, p.lit...)
			continue
		}
		if s, e := m[2*p.group], m[2*p.group+1]; s >= 0 {
			dst = append(dst, src[s:e]...)
		}
	}
	return dst
}
