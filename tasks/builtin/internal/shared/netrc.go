package shared

import (
	"fmt"
	"strings"
)

// A netrc file (the format of ftp's and curl's ~/.netrc) is a series of
// words: "machine NAME" or "default" opens an entry, followed by "login
// NAME" (or "user"), "password WORD" and "account WORD"; "macdef NAME"
// opens a macro that runs to the next empty line. A word may be quoted
// with double quotes, a backslash takes the next character as it is, and
// a word starting with # begins a comment to the end of its line.
// Ansible's uri and get_url read it through Python's netrc module, whose
// error texts readNetrc gives.

// netrcScanner hands out the words of a netrc file with the line each
// starts on.
type netrcScanner struct {
	text string
	pos  int
	line int
}

// word returns the next word, "" at the end.
func (s *netrcScanner) word() (string, int) {
	for s.pos < len(s.text) {
		c := s.text[s.pos]
		switch {
		case c == '\n':
			s.line++
			s.pos++
		case c == ' ' || c == '\t' || c == '\r':
			s.pos++
		case c == '#':
			s.skipLine()
		default:
			return s.take(), s.line
		}
	}
	return "", s.line
}

// take reads one word at s.pos: quoted, or up to white space.
func (s *netrcScanner) take() string {
	var b strings.Builder
	quoted := s.text[s.pos] == '"'
	if quoted {
		s.pos++
	}
	for s.pos < len(s.text) {
		c := s.text[s.pos]
		if quoted && c == '"' {
			s.pos++
			break
		}
		if !quoted && (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
			break
		}
		if c == '\\' && s.pos+1 < len(s.text) {
			s.pos++
			c = s.text[s.pos]
		}
		if c == '\n' {
			s.line++
		}
		b.WriteByte(c)
		s.pos++
	}
	return b.String()
}

// skipLine moves past the end of the current line.
func (s *netrcScanner) skipLine() {
	i := strings.IndexByte(s.text[s.pos:], '\n')
	if i < 0 {
		s.pos = len(s.text)
		return
	}
	s.pos += i + 1
	s.line++
}

// skipMacro moves past a macro's body: its lines up to an empty one,
// false when the file ends first.
func (s *netrcScanner) skipMacro() bool {
	s.skipLine() // the rest of the macdef line
	for s.pos < len(s.text) {
		i := strings.IndexByte(s.text[s.pos:], '\n')
		if i < 0 {
			return false
		}
		empty := i == 0
		s.pos += i + 1
		s.line++
		if empty {
			return true
		}
	}
	return false
}

// readNetrc reads a netrc file: each machine's (and the default entry's,
// under "default") login and password. check, when not nil, judges each
// entry's login (the ownership and mode checks of ~/.netrc) and returns
// what is wrong. A malformed file gives Python's NetrcParseError text
// naming file and line.
func readNetrc(text, file string, check func(login string) string) (map[string][2]string, string) {
	s := &netrcScanner{text: text, line: 1}
	out := map[string][2]string{}
	fail := func(line int, format string, args ...any) (map[string][2]string, string) {
		return nil, fmt.Sprintf(format, args...) + fmt.Sprintf(" (%s, line %d)", file, line)
	}
	w, line := s.word()
	for w != "" {
		var name string
		switch w {
		case "machine":
			if name, line = s.word(); name == "" {
				return fail(line, "missing 'machine' name")
			}
		case "default":
			name = "default"
		case "macdef":
			s.word()
			if !s.skipMacro() {
				return fail(s.line, "Macro definition missing null line terminator.")
			}
			w, line = s.word()
			continue
		default:
			return fail(line, "bad toplevel token '%s'", w)
		}
		var entry [2]string
		for w, line = s.word(); w != "" && w != "machine" && w != "default" && w != "macdef"; w, line = s.word() {
			switch w {
			case "login", "user":
				entry[0], _ = s.word()
			case "password":
				entry[1], _ = s.word()
			case "account":
				s.word()
			default:
				return fail(line, "bad follower token '%s'", w)
			}
		}
		out[name] = entry
		if check != nil {
			if msg := check(entry[0]); msg != "" {
				return nil, msg + " (None, line None)" // Python raises it without file and line
			}
		}
	}
	return out, ""
}
