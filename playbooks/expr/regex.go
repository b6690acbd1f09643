package expr

import (
	"errors"
	"time"
	"unsafe"

	"github.com/tender-sh/tender/internal/pyre"
)

// compileRegex compiles a Python regular expression (internal/pyre, on
// regexp2, with Python's syntax and semantics) for one evaluation: each
// search is bounded by pyre.DefaultTimeout and by what is left of the
// evaluation's time (b), so that a catastrophic pattern fails with an
// error naming it. A syntax error is Python's re.error.
func compileRegex(b *budget, pat string, ignorecase, multiline bool) (*pyre.Regexp, error) {
	o := pyre.Options{IgnoreCase: ignorecase, Multiline: multiline, Timeout: b.searchTimeout()}
	re, err := pyre.Compile(pat, o)
	if err != nil {
		var se *pyre.SyntaxError
		if errors.As(err, &se) {
			return nil, reError(se.Python())
		}
		return nil, errorf("invalid %v", err)
	}
	return re, nil
}

// reError is Python's re.error with its text: a pattern or a replacement
// that does not compile. Ansible's templating does not catch it (its
// task validation reports it as an exception, PythonException).
func reError(msg string) error { return &pyError{msg: msg, exc: "re.error"} }

// searchTimeout bounds one search: pyre's default, or less when the
// evaluation's time limit comes sooner.
func (b *budget) searchTimeout() time.Duration {
	t := pyre.DefaultTimeout
	if b != nil && b.maxTime > 0 {
		left := b.maxTime - time.Since(b.start)
		t = max(min(t, left), time.Millisecond)
	}
	return t
}

// regexErr is a search's error as the evaluation's: past its time bound,
// the template's time limit when that is what ran out; a search's bound
// (pyre.ErrTimeout, pyre.ErrBacktrackLimit) stays in the error's chain.
func regexErr(b *budget, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, pyre.ErrTimeout) && b != nil {
		if lerr := b.check(); lerr != nil {
			return lerr
		}
	}
	var le *limitError
	if errors.As(err, &le) || errors.Is(err, ErrInterrupted) || errors.Is(err, pyre.ErrTimeout) || errors.Is(err, pyre.ErrBacktrackLimit) {
		return err
	}
	return errorf("%v", err)
}

// textCost counts what a search of s builds: regexp2 reads a text as
// 4-byte characters.
func textCost(b *budget, s string) error { return b.alloc(4 * int64(len(s))) }

// search is re.search, re.match or re.fullmatch (mode) of re in s.
func search(b *budget, re *pyre.Regexp, s, mode string) ([]int, error) {
	if err := b.tick(len(s)); err != nil {
		return nil, err
	}
	if err := textCost(b, s); err != nil {
		return nil, err
	}
	var m []int
	var err error
	switch mode {
	case "match":
		m, err = re.Match(s)
	case "fullmatch":
		m, err = re.FullMatch(s)
	default:
		m, err = re.Search(s)
	}
	return m, regexErr(b, err)
}

// findAll is regex_findall: every match of re in s, or its group, or the
// list of its groups, found one at a time within the budget b; a list of
// more than maxItems matches is refused.
func findAll(b *budget, re *pyre.Regexp, s string) ([]any, error) {
	if err := textCost(b, s); err != nil {
		return nil, err
	}
	out := []any{}
	last := 0
	group := func(m []int, g int) string {
		if m[2*g] < 0 {
			return ""
		}
		return s[m[2*g]:m[2*g+1]]
	}
	err := re.Each(s, func(m []int) error {
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
	return out, regexErr(b, err)
}

// textBytes is s's bytes without a copy, for the regular expressions,
// which only read them.
func textBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// bytesText is b as a string without a copy: b must not change after.
func bytesText(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// countMatches counts the matches of re in s within the budget b.
func countMatches(b *budget, re *pyre.Regexp, s string) (int, error) {
	if err := textCost(b, s); err != nil {
		return 0, err
	}
	n, last := 0, 0
	err := re.Each(s, func(m []int) error {
		n++
		err := b.tick(m[1] - last + 1)
		last = m[1]
		return err
	})
	return n, regexErr(b, err)
}
