package expr

import (
	"regexp"
	"unsafe"

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

// findAll is regex_findall: every match of re in s, or its group, or the
// list of its groups, found one at a time within the budget b; a list of
// more than maxItems matches is refused.
func findAll(b *budget, re *regexp.Regexp, s string) ([]any, error) {
	out := []any{}
	last := 0
	group := func(m []int, g int) string {
		if m[2*g] < 0 {
			return ""
		}
		return s[m[2*g]:m[2*g+1]]
	}
	err := pyre.EachMatch(re, textBytes(s), true, func(m []int) error {
		if err := b.tick(m[1] - last + 1); err != nil {
			return err
		}
		last = m[1]
		if len(out) == maxItems {
			return errorf("regex_findall: more than %d matches", maxItems)
		}
		switch len(m) {
		case 2:
			out = append(out, group(m, 0))
		case 4:
			out = append(out, group(m, 1))
		default:
			groups := make([]any, len(m)/2-1)
			for g := range groups {
				groups[g] = group(m, g+1)
			}
			out = append(out, groups)
		}
		return nil
	})
	return out, err
}

// countMatches counts the matches of re in s within the budget b.
func countMatches(b *budget, re *regexp.Regexp, s string) (int, error) {
	n, last := 0, 0
	err := pyre.EachMatch(re, textBytes(s), false, func(m []int) error {
		n++
		err := b.tick(m[1] - last + 1)
		last = m[1]
		return err
	})
	return n, err
}

// textBytes is s's bytes without a copy, for the regular expressions,
// which only read them.
func textBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// bytesText is b as a string without a copy: b must not change after.
func bytesText(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
