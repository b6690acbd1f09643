package hostpattern

import (
	"fmt"

	"github.com/tender-sh/tender/internal/fnmatch"
	"github.com/tender-sh/tender/internal/pyre"
)

// Matcher compiles a term into what matches a name: `~re` is a
// Python regular expression (internal/pyre) matched at the start of the
// name (Python's re.match), anything else a shell glob matched whole
// (internal/fnmatch, case-sensitive). The matcher's error is a search's
// past its bounds.
func Matcher(expr string) (func(name string) (bool, error), error) {
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
	glob := fnmatch.Compile(expr)
	return func(name string) (bool, error) { return glob.Match(name), nil }, nil
}
