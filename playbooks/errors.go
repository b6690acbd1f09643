package playbooks

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Pos is a position in a YAML file: the file's path as it was opened, and
// the 1-based line and column of the node.
type Pos struct {
	File string
	Line int
	Col  int
}

// String formats the position as file:line:col, the form editors jump to.
func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Error is one problem found while loading a playbook, at a position.
type Error struct {
	Pos Pos
	Msg string
	Err error // the underlying cause, if any (a YAML or expression error)
}

// Error returns "file:line:col: message".
func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrorList is every problem found while loading, in the order found.
// Load returns all of a file's errors at once rather than stopping at the
// first one.
type ErrorList []*Error

// Error joins the errors, one per line.
func (l ErrorList) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Unwrap returns the errors, so errors.As finds an *Error in the list.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// errs collects errors while decoding one or more files.
type errs struct {
	list ErrorList
}

func (c *errs) add(file string, n *yaml.Node, format string, args ...any) {
	c.list = append(c.list, &Error{Pos: posOf(file, n), Msg: fmt.Sprintf(format, args...)})
}

func (c *errs) wrap(file string, n *yaml.Node, err error, format string, args ...any) {
	c.list = append(c.list, &Error{Pos: posOf(file, n), Msg: fmt.Sprintf(format, args...), Err: err})
}

// yamlErr turns a yaml.v3 syntax error ("yaml: line 3: ...") into an *Error
// with the line pulled out, so it reads like every other error. yaml.v3
// names the line where the enclosing block starts; the line that breaks
// it is found by parsing growing prefixes of the file until the same error
// appears, and reported with its first non-blank column.
func (c *errs) yamlErr(file string, data []byte, err error) {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		for _, m := range te.Errors {
			c.list = append(c.list, &Error{Pos: Pos{File: file, Line: 1, Col: 1}, Msg: m, Err: err})
		}
		return
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 1
	if n, _ := fmt.Sscanf(msg, "line %d:", &line); n == 1 {
		msg = strings.TrimSpace(msg[strings.Index(msg, ":")+1:])
	}
	lines := strings.Split(string(data), "\n")
	pos := Pos{File: file, Line: line, Col: 1}
	for k := line; k <= len(lines) && k < line+200; k++ {
		var n yaml.Node
		e := yaml.Unmarshal([]byte(strings.Join(lines[:k], "\n")+"\n"), &n)
		if e != nil && strings.HasSuffix(e.Error(), msg) {
			pos.Line = k
			pos.Col = len(lines[k-1]) - len(strings.TrimLeft(lines[k-1], " \t")) + 1
			if c := mappingValueCol(lines[k-1]); c > 0 && strings.HasPrefix(msg, "mapping values are not allowed") {
				pos.Col = c // PyYAML marks the colon that cannot start a value
			}
			if k != line {
				msg += fmt.Sprintf(" (in the block that starts at line %d)", line)
			}
			break
		}
	}
	c.list = append(c.list, &Error{Pos: pos, Msg: "YAML syntax: " + msg, Err: err})
}

// mappingValueCol is the column (from 1) of the second mapping
// indicator (a colon followed by white space or the line's end) of line,
// outside quotes: the one a plain scalar cannot hold, where PyYAML
// reports "mapping values are not allowed here"; 0 when there is none.
func mappingValueCol(line string) int {
	seen := 0
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case (c == '\'' || c == '"') && scalarStart(line[:i]):
			quote = c
		case c == '#' && (i == 0 || line[i-1] == ' '):
			return 0
		case c == ':' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t'):
			if seen++; seen == 2 {
				return i + 1
			}
		}
	}
	return 0
}

// scalarStart: a scalar may start after before (a quote there opens a
// quoted scalar; elsewhere it is part of a plain one).
func scalarStart(before string) bool {
	t := strings.TrimRight(before, " \t")
	return t == "" || strings.ContainsRune(":-[{,", rune(t[len(t)-1]))
}

// YAMLError turns an error yaml.v3 returned for file's data into
// positioned errors, as the playbook loader reports them: a syntax error
// gets the line (and column) that breaks the document.
func YAMLError(file string, data []byte, err error) ErrorList {
	var c errs
	c.yamlErr(file, data, err)
	return c.list
}

func posOf(file string, n *yaml.Node) Pos {
	if n == nil {
		return Pos{File: file}
	}
	return Pos{File: file, Line: n.Line, Col: n.Column}
}
