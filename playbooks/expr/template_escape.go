package expr

import (
	"regexp"
	"strings"
)

// escapedSource is a playbook template's text as Ansible's templar holds
// it after escaping backslashes: every backslash of a string literal
// inside {{ }} doubled (which is why such literals read verbatim). It is
// the text Ansible's messages quote ("Unexpected templating type error
// occurred on (...)") and what it returns for a template it cannot
// compile. Text without a backslash or without {{ is left as it is, as
// Ansible does; so is text whose markup does not lex.
func escapedSource(src string) string {
	if !strings.Contains(src, `\`) || !strings.Contains(src, "{{") {
		return src
	}
	var b strings.Builder
	i := 0
	for i < len(src) {
		next := strings.Index(src[i:], "{")
		if next < 0 {
			b.WriteString(src[i:])
			break
		}
		at := i + next
		b.WriteString(src[i:at])
		rest := src[at:]
		switch {
		case strings.HasPrefix(rest, "{{"):
			end, ok := lexTag(src, at+2, "}}", &b, true)
			if !ok {
				return src
			}
			i = end
		case strings.HasPrefix(rest, "{#"):
			end := strings.Index(src[at+2:], "#}")
			if end < 0 {
				return src
			}
			b.WriteString(src[at : at+2+end+2])
			i = at + 2 + end + 2
		case strings.HasPrefix(rest, "{%"):
			if m := rawBegin.FindStringIndex(rest); m != nil && m[0] == 0 {
				e := rawEnd.FindStringIndex(rest[m[1]:])
				if e == nil {
					return src
				}
				b.WriteString(rest[:m[1]+e[1]])
				i = at + m[1] + e[1]
				continue
			}
			end, ok := lexTag(src, at+2, "%}", &b, false)
			if !ok {
				return src
			}
			i = end
		default:
			b.WriteByte('{')
			i = at + 1
		}
	}
	return b.String()
}

var (
	rawBegin = regexp.MustCompile(`^\{%[-+]?\s*raw\s*[-+]?%\}`)
	rawEnd   = regexp.MustCompile(`\{%[-+]?\s*endraw\s*[-+]?%\}`)
)

// lexTag copies a tag from its opening delimiter (just before from) to
// its closing one, as Jinja's lexer finds it: outside string literals
// and with brackets balanced. double doubles the backslashes of the
// string literals. It returns where the tag ends; ok is false when it
// does not end.
func lexTag(src string, from int, closer string, b *strings.Builder, double bool) (int, bool) {
	b.WriteString(src[from-2 : from])
	depth := 0
	i := from
	for i < len(src) {
		c := src[i]
		switch {
		case depth == 0 && strings.HasPrefix(src[i:], closer):
			b.WriteString(closer)
			return i + len(closer), true
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(src) {
				return 0, false
			}
			lit := src[i : j+1]
			if double {
				lit = strings.ReplaceAll(lit, `\`, `\\`)
			}
			b.WriteString(lit)
			i = j + 1
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
		}
		b.WriteByte(c)
		i++
	}
	return 0, false
}
