package inventory

import (
	"errors"
	"strings"
)

// token is one word of a shlex split, with the byte offset where it began.
type token struct {
	text string
	pos  int
}

var (
	errNoClosingQuote = errors.New("No closing quotation")
	errNoEscaped      = errors.New("No escaped character")
)

// shlexSplit splits line as Python's shlex.split(line, comments=True) does
// in POSIX mode: whitespace separates words, single quotes are literal,
// double quotes allow \" and \\, a backslash outside quotes escapes any
// character, and '#' starts a comment, even in the middle of a word.
func shlexSplit(line string) ([]token, error) {
	const (
		space = iota
		word
		squote
		dquote
	)
	var (
		out    []token
		cur    strings.Builder
		state  = space
		quoted bool
		start  int
	)
	emit := func() {
		if cur.Len() > 0 || quoted {
			out = append(out, token{cur.String(), start})
		}
		cur.Reset()
		quoted = false
	}
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch state {
		case space, word:
			switch {
			case isSpace(c):
				if state == word {
					emit()
				}
				state = space
			case c == '#':
				if state == word {
					emit()
				}
				return out, nil
			default:
				if state == space {
					start = i
					state = word
				}
				switch c {
				case '\'':
					state = squote
				case '"':
					state = dquote
				case '\\':
					if i+1 >= len(line) {
						return nil, errNoEscaped
					}
					i++
					cur.WriteByte(line[i])
				default:
					cur.WriteByte(c)
				}
			}
		case squote:
			quoted = true
			if c == '\'' {
				state = word
			} else {
				cur.WriteByte(c)
			}
		case dquote:
			quoted = true
			switch {
			case c == '"':
				state = word
			case c == '\\':
				if i+1 >= len(line) {
					return nil, errNoEscaped
				}
				i++
				if n := line[i]; n != '"' && n != '\\' {
					cur.WriteByte('\\')
				}
				cur.WriteByte(line[i])
			default:
				cur.WriteByte(c)
			}
		}
	}
	switch state {
	case squote, dquote:
		return nil, errNoClosingQuote
	case word:
		emit()
	}
	return out, nil
}
