package shared

import (
	"errors"
	"io"
	"strings"
)

// ShlexSplit splits s into words as Python's shlex.split does in POSIX
// mode (no comments): whitespace separates words, '...' is literal, "..."
// allows \" and \\ escapes, and a backslash outside quotes escapes any
// character.
func ShlexSplit(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	var quote rune
	escape := false
	for _, c := range s {
		switch {
		case escape:
			if quote == '"' && c != '"' && c != '\\' {
				w.WriteRune('\\')
			}
			w.WriteRune(c)
			escape = false
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				w.WriteRune(c)
			}
		case quote == '"':
			switch c {
			case '"':
				quote = 0
			case '\\':
				escape = true
			default:
				w.WriteRune(c)
			}
		case c == '\\':
			escape, inWord = true, true
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(c)
			inWord = true
		}
	}
	if escape {
		return nil, errors.New("No escaped character")
	}
	if quote != 0 {
		return nil, errors.New("No closing quotation")
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// NilReader turns a nil *strings.Reader into a nil io.Reader.
func NilReader(r *strings.Reader) io.Reader {
	if r == nil {
		return nil
	}
	return r
}
