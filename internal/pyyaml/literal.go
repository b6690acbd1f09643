package pyyaml

import (
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/yaml11"
)

// lineBreaks are the characters that make the yaml callback write text
// as a literal block (its should_use_block).
const lineBreaks = "\n\r\x1c\x1d\x1e\u0085\u2028\u2029"

// literal writes v, text in a block context at the given level (the
// column of its key or dash), as a literal block when BlockText asks for
// one: "|-", the lines indented by Indent past the level, an empty line
// left empty; an indentation indicator when the text starts with a space
// or a break. Text PyYAML could not write as a block (empty, or holding
// characters it must escape) is double-quoted, as PyYAML falls back. It
// writes the closing line break; ok is false when v is not such text.
func (e *yamlEmitter) literal(v any, level int) (string, bool) {
	if !e.blockText {
		return "", false
	}
	var s string
	switch t := v.(type) {
	case string:
		s = t
	case yaml11.Unsafe:
		s = string(t)
	default:
		return "", false
	}
	if !strings.ContainsAny(s, lineBreaks) {
		return "", false
	}
	s = cleanText(s)
	if !blockAllowed(s) {
		return doubleQuoted(s) + "\n", true
	}
	var b strings.Builder
	b.WriteString("|")
	if s[0] == ' ' || s[0] == '\n' {
		b.WriteString(strconv.Itoa(e.indent))
	}
	b.WriteString("-\n")
	pad := strings.Repeat(" ", level+e.indent)
	for _, line := range strings.Split(s, "\n") {
		if line != "" {
			b.WriteString(pad + line)
		}
		b.WriteByte('\n')
	}
	return b.String(), true
}

// cleanText is what the yaml callback makes of multi-line text before
// writing it: trailing white space dropped, then the characters outside
// Python's string.printable below U+00A0, tabs expanded to columns of
// eight, vertical tabs, form feeds and carriage returns dropped, and
// spaces before a line break.
func cleanText(s string) string {
	s = strings.TrimRightFunc(s, pyfmt.IsSpace)
	var b strings.Builder
	for _, r := range s {
		if r >= 0xa0 || r >= 0x20 && r < 0x7f || strings.ContainsRune("\t\n\r\x0b\x0c", r) {
			b.WriteRune(r)
		}
	}
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		l = strings.NewReplacer("\x0b", "", "\x0c", "", "\r", "").Replace(expandTabs(l))
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// expandTabs is Python's str.expandtabs() on one line (a carriage
// return starts the columns again, as there).
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\t':
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		case '\r':
			col = -1
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

// blockAllowed is PyYAML's allow_block for cleaned text: not empty, no
// character it would escape, no break it writes other than "\n" (tender
// writes U+2028 and U+2029 quoted), no trailing space.
func blockAllowed(s string) bool {
	if s == "" || strings.HasSuffix(s, " ") {
		return false
	}
	for _, r := range s {
		switch {
		case r == '\n':
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0, r == 0xfeff, r == 0x2028, r == 0x2029:
			return false
		case r >= 0xd800 && r <= 0xdfff, r == 0xfffe, r == 0xffff:
			return false
		}
	}
	return true
}
