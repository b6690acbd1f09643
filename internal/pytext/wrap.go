// Package pytext lays text out as Python's textwrap module does, for
// Jinja's wordwrap filter and for the warnings Ansible's display wraps.
package pytext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

func runeLen(s string) int { return utf8.RuneCountInString(s) }

func isWrapSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\v' || r == '\f' || r == '\r'
}
func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc)
}
func isLetterRune(r rune) bool {
	return isWordRune(r) && !unicode.IsDigit(r)
}

// wrapChunks splits text as textwrap does: runs of whitespace, words, and
// with hyphens words split after their hyphens and around em-dashes.
func wrapChunks(text string, hyphens bool) []string {
	r := []rune(text)
	n := len(r)
	at := func(i int) rune {
		if i < 0 || i >= n {
			return 0
		}
		return r[i]
	}
	emPre := func(c rune) bool { return isWordRune(c) || strings.ContainsRune("!\"'&.,?", c) }
	emDash := func(k int) bool { // -{2,}\w at k, after an emPre character
		if k == 0 || !emPre(r[k-1]) || at(k) != '-' || at(k+1) != '-' {
			return false
		}
		j := k
		for j < n && r[j] == '-' {
			j++
		}
		return j < n && isWordRune(r[j])
	}
	var out []string
	for i := 0; i < n; {
		if isWrapSpace(r[i]) {
			j := i
			for j < n && isWrapSpace(r[j]) {
				j++
			}
			out = append(out, string(r[i:j]))
			i = j
			continue
		}
		if !hyphens {
			j := i
			for j < n && !isWrapSpace(r[j]) {
				j++
			}
			out = append(out, string(r[i:j]))
			i = j
			continue
		}
		if emDash(i) {
			j := i
			for j < n && r[j] == '-' {
				j++
			}
			out = append(out, string(r[i:j]))
			i = j
			continue
		}
		end := n
		for k := i + 1; k <= n; k++ {
			if k < n && isWrapSpace(r[k-1]) {
				end = k - 1
				break
			}
			if k < n && r[k] == '-' &&
				(isLetterRune(at(k-2)) && isLetterRune(at(k-1)) || isLetterRune(at(k-3)) && at(k-2) == '-' && isLetterRune(at(k-1))) &&
				isLetterRune(at(k+1)) && (isLetterRune(at(k+2)) || at(k+2) == '-' && isLetterRune(at(k+3))) {
				end = k + 1
				break
			}
			if k == n || isWrapSpace(r[k]) || emDash(k) {
				end = k
				break
			}
		}
		out = append(out, string(r[i:end]))
		i = end
	}
	return out
}

// Options are textwrap's: whether a word longer than the width is broken,
// and whether words break after their hyphens.
type Options struct {
	BreakLongWords bool
	BreakOnHyphens bool
}

// Wrap is Python's textwrap.wrap(text, width) with expand_tabs and
// replace_whitespace off (as Jinja's wordwrap calls it): the lines of
// text, none longer than width unless a word is and may not be broken.
func Wrap(text string, width int, o Options) []string {
	breakLong, hyphens := o.BreakLongWords, o.BreakOnHyphens
	chunks := wrapChunks(text, hyphens)
	var lines []string
	for i, j := 0, len(chunks)-1; i < j; i, j = i+1, j-1 {
		chunks[i], chunks[j] = chunks[j], chunks[i]
	}
	for len(chunks) > 0 {
		var cur []string
		curLen := 0
		if strings.TrimFunc(chunks[len(chunks)-1], unicode.IsSpace) == "" && lines != nil {
			chunks = chunks[:len(chunks)-1]
		}
		for len(chunks) > 0 {
			l := runeLen(chunks[len(chunks)-1])
			if curLen+l > width {
				break
			}
			cur = append(cur, chunks[len(chunks)-1])
			chunks = chunks[:len(chunks)-1]
			curLen += l
		}
		if len(chunks) > 0 && runeLen(chunks[len(chunks)-1]) > width {
			space := max(width-curLen, 1)
			last := []rune(chunks[len(chunks)-1])
			switch {
			case breakLong:
				end := space
				if hyphens && len(last) > space {
					if h := strings.LastIndex(string(last[:space]), "-"); h > 0 {
						h = utf8.RuneCountInString(string(last[:space])[:h])
						if strings.Trim(string(last[:h]), "-") != "" {
							end = h + 1
						}
					}
				}
				cur = append(cur, string(last[:end]))
				chunks[len(chunks)-1] = string(last[end:])
			case cur == nil:
				cur = append(cur, string(last))
				chunks = chunks[:len(chunks)-1]
			}
		}
		if len(cur) > 0 && strings.TrimFunc(cur[len(cur)-1], unicode.IsSpace) == "" {
			cur = cur[:len(cur)-1]
		}
		if len(cur) > 0 {
			lines = append(lines, strings.Join(cur, ""))
		} else if lines == nil {
			lines = []string{}
		}
	}
	return lines
}

// Fill is textwrap.wrap(text, width) with textwrap's defaults, as
// Ansible's display wraps a warning: tabs expanded to 8 columns, every
// whitespace character made a space, long words broken, words broken
// after their hyphens; the lines joined with newlines.
func Fill(text string, width int) string {
	var b strings.Builder
	col := 0
	for _, r := range text {
		switch {
		case r == '\t':
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case r == '\n' || r == '\r':
			b.WriteByte(' ')
			col = 0
		case isWrapSpace(r):
			b.WriteByte(' ')
			col++
		default:
			b.WriteRune(r)
			col++
		}
	}
	return strings.Join(Wrap(b.String(), width, Options{BreakLongWords: true, BreakOnHyphens: true}), "\n")
}
