// Package shlex splits a command line into words as Python's shlex.split
// does (POSIX mode, no comments), which is how Ansible splits ssh
// arguments and $EDITOR: blanks separate words, single quotes keep
// everything, double quotes keep everything but a backslash before " or
// \, and a backslash outside quotes keeps the next character. Nothing is
// expanded.
package shlex

import (
	"errors"
	"strings"
)

// Split returns the words of s; an unclosed quote or a trailing backslash
// is an error, with Python's message.
func Split(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r':
			if inWord {
				words, inWord = append(words, cur.String()), false
				cur.Reset()
			}
		case ch == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("No closing quotation")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i, inWord = i+1+j, true
		case ch == '"':
			inWord = true
			for i++; ; i++ {
				if i >= len(s) {
					return nil, errors.New("No closing quotation")
				}
				if s[i] == '"' {
					break
				}
				if s[i] == '\\' && i+1 >= len(s) {
					return nil, errors.New("No escaped character")
				}
				if s[i] == '\\' && strings.IndexByte(`"\\`, s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
		case ch == '\\':
			if i+1 >= len(s) {
				return nil, errors.New("No escaped character")
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
