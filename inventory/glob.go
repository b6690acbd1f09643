package inventory

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/tender-sh/tender/internal/pyre"
)

// termMatcher compiles a term into what matches a name: `~re` is a
// Python regular expression (internal/pyre) matched at the start of the
// name (Python's re.match), anything else a shell glob matched whole
// (Python's fnmatch, case-sensitive). The matcher's error is a search's
// past its bounds.
func termMatcher(expr string) (func(name string) (bool, error), error) {
	if expr[0] == '~' {
		re, err := pyre.Compile(expr[1:], pyre.Options{})
		if err != nil {
			return nil, fmt.Errorf("Invalid host list pattern: %s", expr)
		}
		return func(name string) (bool, error) {
			m, err := re.Match(name)
			if err != nil {
				return false, fmt.Errorf("host pattern %s: %w", expr, err)
			}
			return m != nil, nil
		}, nil
	}
	re, err := regexp.Compile(globRegexp(expr))
	if err != nil {
		return nil, fmt.Errorf("Invalid host list pattern: %s", expr)
	}
	return func(name string) (bool, error) { return re.MatchString(name), nil }, nil
}

// globRegexp translates a shell glob as Python's fnmatch.translate does.
func globRegexp(pat string) string {
	var b strings.Builder
	b.WriteString(`^(?s:`)
	for i := 0; i < len(pat); {
		c := pat[i]
		i++
		switch c {
		case '*':
			b.WriteString(`.*`)
			for i < len(pat) && pat[i] == '*' {
				i++
			}
		case '?':
			b.WriteString(`.`)
		case '[':
			j := i
			if j < len(pat) && pat[j] == '!' {
				j++
			}
			if j < len(pat) && pat[j] == ']' {
				j++
			}
			for j < len(pat) && pat[j] != ']' {
				j++
			}
			if j >= len(pat) {
				b.WriteString(`\[`)
				continue
			}
			stuff := strings.ReplaceAll(pat[i:j], `\`, `\\`)
			i = j + 1
			switch {
			case stuff == "":
				b.WriteString(`[^\x00-\x{10FFFF}]`) // matches nothing
			case stuff == "!":
				b.WriteString(`.`)
			default:
				if stuff[0] == '!' {
					stuff = "^" + stuff[1:]
				} else if stuff[0] == '^' {
					stuff = `\` + stuff
				}
				stuff = strings.ReplaceAll(stuff, "[", `\[`)
				b.WriteString("[" + stuff + "]")
			}
		default:
			j := i
			for j < len(pat) && !strings.ContainsRune("*?[", rune(pat[j])) {
				j++
			}
			b.WriteString(regexp.QuoteMeta(pat[i-1 : j]))
			i = j
		}
	}
	b.WriteString(`)$`)
	return b.String()
}

// GlobMatch reports whether s matches the shell glob pat whole, as
// Python's fnmatch.fnmatchcase does.
func GlobMatch(pat, s string) bool {
	re, err := regexp.Compile(globRegexp(pat))
	return err == nil && re.MatchString(s)
}
