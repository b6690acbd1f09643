package expr

import (
	"regexp"
	"strings"
)

// compileRegex compiles a Python regular expression with Go's RE2 engine.
// The common syntax is the same; \Z becomes \z. Python features RE2 lacks
// (lookaround, backreferences) are a compile error naming the pattern.
// anchored wraps the pattern so it must match at the start.
func compileRegex(pat string, ignorecase, multiline, anchored bool) (*regexp.Regexp, error) {
	p := strings.ReplaceAll(pat, `\Z`, `\z`)
	flags := ""
	if ignorecase {
		flags += "i"
	}
	if multiline {
		flags += "m"
	}
	if flags != "" {
		p = "(?" + flags + ")" + p
	}
	if anchored {
		p = `\A(?:` + p + `)`
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, errorf("invalid regular expression %q: %v", pat, err)
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
