package playbooks

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// maxQuotedFile bounds how much of a playbook file is read to quote the
// line an error is on.
const maxQuotedFile = 16 << 20

// kvBefore finds k=v shorthand on the line before an error's, where
// Ansible points at the '=' instead.
var kvBefore = regexp.MustCompile(`\w+(\s+)?=(\s+)?[\w/-]+`)

// Quote is the text Ansible appends to an error at a position (a task's,
// a file's that does not load): where it is, then, when the file can be
// read from the OS (and is not vault-encrypted), the line before and the
// position's line, with a caret under the column.
func (pos Pos) Quote() string {
	file := ShownPath(pos.File)
	head := func(line, col int) string {
		return fmt.Sprintf("\n\nThe error appears to be in '%s': line %d, column %d, but may\n"+
			"be elsewhere in the file depending on the exact syntax problem.\n", file, line, col)
	}
	target, prev, ok := errorLines(pos.File, pos.Line-1)
	if !ok {
		return head(pos.Line, pos.Col)
	}
	if kvBefore.MatchString(prev) {
		at := strings.Index(strings.TrimRight(prev, " \t\r\n"), "=")
		return head(pos.Line-1, at+1) + fmt.Sprintf("\nThe offending line appears to be:\n\n%s\n%s\n\n",
			strings.TrimRight(prev, " \t\r\n"), strings.Repeat(" ", at)+"^ here")
	}
	return head(pos.Line, pos.Col) + fmt.Sprintf("\nThe offending line appears to be:\n\n%s\n%s\n%s\n",
		strings.TrimRight(prev, " \t\r\n"), strings.TrimRight(target, " \t\r\n"), strings.Repeat(" ", max(pos.Col-1, 0))+"^ here")
}

// errorLines returns line n (0-based) of file and the line before it, as
// Ansible picks them: the last line for one past the end, and a blank
// line gives way to the nearest line above with something on it. ok is
// false when the file cannot be read, is vault-encrypted, or the line is
// not there.
func errorLines(file string, n int) (target, prev string, ok bool) {
	f, err := os.Open(file)
	if err != nil {
		return "", "", false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxQuotedFile))
	if err != nil || bytes.HasPrefix(data, []byte("$ANSIBLE_VAULT;")) {
		return "", "", false
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if n < 0 || len(lines) == 0 {
		return "", "", false
	}
	if n >= len(lines) {
		n = len(lines) - 1
	}
	for n > 0 && strings.TrimSpace(lines[n]) == "" {
		n--
	}
	if strings.TrimSpace(lines[n]) == "" {
		return "", "", false
	}
	if n > 0 {
		prev = lines[n-1]
	}
	return lines[n], prev, true
}

// ShownPath is a file as Ansible names it in its messages: absolute when
// it exists, else as given.
func ShownPath(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return file
	}
	if _, err := os.Stat(abs); err != nil {
		return file
	}
	return abs
}
