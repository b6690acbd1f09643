package expr

import (
	"regexp"

	"github.com/tender-sh/tender/internal/pyre"
)

// compileRegex compiles a Python regular expression with Go's RE2 engine
// through internal/pyre, which the modules use too: the syntax that
// differs is translated ($, \Z, {,n}); what RE2 lacks (lookaround,
// backreferences) is a compile error naming the pattern.
// anchored wraps the pattern so it must match at the start.
func compileRegex(pat string, ignorecase, multiline, anchored bool) (*regexp.Regexp, error) {
	re, err := pyre.Compile(pat, pyre.Options{IgnoreCase: ignorecase, Multiline: multiline})
	if err != nil {
		return nil, errorf("invalid %v", err)
	}
	if anchored {
		re = regexp.MustCompile(`\A(?:` + re.String() + `)`)
	}
	return re, nil
}

func matchFull(pat, s string, ic, ml bool) (bool, error) {
	re, err := compileRegex(pat, ic, ml, false)
	if err != nil {
		return false, err
	}
	full := regexp.MustCompile(`\A(?:` + re.String() + `)\z`)
	return full.MatchString(s), nil
}
