package pyre

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Template is a Python re replacement template (re.sub's repl,
// Match.expand's template) parsed once: \1 .. \99, \g<n>, \g<name>, the
// escapes \n \t \r \f \v \a \b \\ and octal (\0, \0nn, \nnn). An unknown
// escape of an ASCII letter is an error, as in Python; any other keeps
// its backslash. A bytes pattern's template is bytes too.
type Template struct {
	parts []tplPart
}

type tplPart struct {
	lit   []byte
	group int // -1: a literal
}

// templateError is Python's error for a template, with its position,
// in Python's words (re.error names neither the template nor the pattern).
func templateError(pos int, format string, args ...any) error {
	return fmt.Errorf("%s at position %d", fmt.Sprintf(format, args...), pos)
}

// ParseTemplate parses t for matches of re.
func ParseTemplate(tpl string, re *Regexp) (*Template, error) {
	t := []rune(tpl)
	if re.bytes {
		t = make([]rune, len(tpl))
		for i := 0; i < len(tpl); i++ {
			t[i] = rune(tpl[i])
		}
	}
	out := &Template{}
	var lit []byte
	add := func(r rune) {
		if re.bytes {
			lit = append(lit, byte(r))
		} else {
			lit = utf8.AppendRune(lit, r)
		}
	}
	group := func(n, pos int) error {
		if n > re.ngroups {
			return templateError(pos, "invalid group reference %d", n)
		}
		if len(lit) > 0 {
			out.parts = append(out.parts, tplPart{lit: lit, group: -1})
			lit = nil
		}
		out.parts = append(out.parts, tplPart{group: n})
		return nil
	}
	octal := func(c rune) bool { return c >= '0' && c <= '7' }
	for i := 0; i < len(t); i++ {
		if t[i] != '\\' {
			add(t[i])
			continue
		}
		start := i
		if i+1 == len(t) {
			return nil, templateError(start, "bad escape (end of pattern)")
		}
		i++
		c := t[i]
		switch {
		case c == 'g':
			n, next, err := templateGroup(t, i+1, re)
			if err != nil {
				return nil, err
			}
			if err := group(n, i+2); err != nil {
				return nil, err
			}
			i = next
		case c == '0':
			v := rune(0)
			for k := 0; k < 2 && i+1 < len(t) && octal(t[i+1]); k++ {
				i++
				v = v*8 + t[i] - '0'
			}
			add(v)
		case c >= '1' && c <= '9':
			n := int(c - '0')
			if i+1 < len(t) && t[i+1] >= '0' && t[i+1] <= '9' {
				if octal(c) && octal(t[i+1]) && i+2 < len(t) && octal(t[i+2]) {
					v := (c-'0')*64 + (t[i+1]-'0')*8 + t[i+2] - '0'
					if v > 0o377 {
						return nil, templateError(start, `octal escape value %s outside of range 0-0o377`, string(t[start:i+3]))
					}
					add(v)
					i += 2
					continue
				}
				i++
				n = n*10 + int(t[i]-'0')
			}
			if err := group(n, start+1); err != nil {
				return nil, err
			}
		default:
			if e, ok := pyEscapes[c]; ok {
				add(e)
			} else if c < 0x80 && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
				return nil, templateError(start, `bad escape \%c`, c)
			} else {
				add('\\')
				add(c)
			}
		}
	}
	if len(lit) > 0 {
		out.parts = append(out.parts, tplPart{lit: lit, group: -1})
	}
	return out, nil
}

// templateGroup reads <name> of \g<name> from t[i]: the group's number
// and the index of the ">".
func templateGroup(t []rune, i int, re *Regexp) (int, int, error) {
	if i >= len(t) || t[i] != '<' {
		return 0, 0, templateError(i, "missing <")
	}
	start := i + 1
	end := start
	for end < len(t) && t[end] != '>' {
		end++
	}
	if end == len(t) {
		if end == start {
			return 0, 0, templateError(start, "missing group name")
		}
		return 0, 0, templateError(start, "missing >, unterminated name")
	}
	name := string(t[start:end])
	switch {
	case name == "":
		return 0, 0, templateError(start, "missing group name")
	case isDecimal(name):
		n, err := strconv.Atoi(name)
		if err != nil || n > re.ngroups {
			return 0, 0, templateError(start, "invalid group reference %s", name)
		}
		return n, end, nil
	case !isIdentifier(name):
		return 0, 0, templateError(start, "bad character in group name '%s'", name)
	}
	n := re.SubexpIndex(name)
	if n < 0 {
		return 0, 0, fmt.Errorf("unknown group name '%s'", name)
	}
	return n, end, nil
}

var pyEscapes = map[rune]rune{'n': '\n', 't': '\t', 'r': '\r', 'f': '\f', 'v': '\v', 'a': '\a', 'b': '\b', '\\': '\\'}

// Expand appends the template filled with a match of src (m from
// Search, Each) to dst; a group that did not take part is empty.
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

// UsesGroups reports whether the template refers to a group other than
// the whole match.
func (t *Template) UsesGroups() bool {
	for _, p := range t.parts {
		if p.group > 0 {
			return true
		}
	}
	return false
}
