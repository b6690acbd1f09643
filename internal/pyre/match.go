package pyre

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"github.com/dlclark/regexp2/v2"
)

// ErrTimeout and ErrBacktrackLimit are wrapped by the error of a search
// past its bounds (Options.Timeout, MaxBacktrack).
var (
	ErrTimeout        = errors.New("regular expression search took too long")
	ErrBacktrackLimit = errors.New("regular expression search needed too much backtracking")
)

// limitError is a search's error past a bound: its text names the
// pattern and the bound; it wraps ErrTimeout or ErrBacktrackLimit.
type limitError struct {
	msg  string
	kind error
}

func (e *limitError) Error() string { return e.msg }
func (e *limitError) Unwrap() error { return e.kind }

// engineError is the error of a regexp2 search, naming the pattern.
func (re *Regexp) engineError(err error) error {
	if errors.Is(err, regexp2.ErrBacktrackingStackLimit) {
		return &limitError{kind: ErrBacktrackLimit, msg: fmt.Sprintf(
			"regular expression %q: a search needed more than %d backtracking positions (catastrophic backtracking)", re.pattern, MaxBacktrack)}
	}
	if errors.Is(err, errTextTooLong) {
		return fmt.Errorf("regular expression %q: %w", re.pattern, err)
	}
	// regexp2's only other error is its timeout
	return &limitError{kind: ErrTimeout, msg: fmt.Sprintf(
		"regular expression %q: a search took more than %v (catastrophic backtracking)", re.pattern, re.timeout)}
}

// find runs c once from rune index pos of t: the match's indices in
// bytes into m (as regexp's FindSubmatchIndex, -1 for a group that did not
// take part), and its rune bounds.
func (re *Regexp) find(c *regexp2.Regexp, t text, pos int, m []int) (start, end int, found bool, err error) {
	err = c.FindRunesMatches(t.runes, pos, func(v regexp2.MatchView) bool {
		start, end = re.view(v, t, m)
		found = true
		return false
	})
	if err != nil {
		return 0, 0, false, re.engineError(err)
	}
	return start, end, found, nil
}

// view copies a match's groups into m, in bytes, and returns its rune
// bounds.
func (re *Regexp) view(v regexp2.MatchView, t text, m []int) (start, end int) {
	for g := 0; g <= re.ngroups; g++ {
		i, n, ok := v.GroupRange(g)
		if !ok {
			m[2*g], m[2*g+1] = -1, -1
			continue
		}
		if g == 0 {
			start, end = i, i+n
		}
		m[2*g], m[2*g+1] = t.byteAt(i), t.byteAt(i+n)
	}
	return start, end
}

// Search is re.search: the first match anywhere in s, as the indices of
// regexp's FindStringSubmatchIndex; nil when there is none.
func (re *Regexp) Search(s string) ([]int, error) { return re.once1(re.search, s, nil) }

// Match is re.match: the match at the start of s, or nil.
func (re *Regexp) Match(s string) ([]int, error) {
	return re.once1(nil, s, re.anchored(anchoredVariant))
}

// FullMatch is re.fullmatch: a match of the whole of s, or nil.
func (re *Regexp) FullMatch(s string) ([]int, error) {
	return re.once1(nil, s, re.anchored(fullVariant))
}

// SearchBytes is Search on b, which it does not keep.
func (re *Regexp) SearchBytes(b []byte) ([]int, error) { return re.Search(bytesText(b)) }

// MatchBytes is Match on b, which it does not keep.
func (re *Regexp) MatchBytes(b []byte) ([]int, error) { return re.Match(bytesText(b)) }

func (re *Regexp) anchored(v int) func() (*regexp2.Regexp, error) {
	return func() (*regexp2.Regexp, error) { return re.variant(v) }
}

func (re *Regexp) once1(c *regexp2.Regexp, s string, get func() (*regexp2.Regexp, error)) ([]int, error) {
	if get != nil {
		var err error
		if c, err = get(); err != nil {
			return nil, err
		}
	}
	t, err := re.decode(s)
	if err != nil {
		return nil, re.engineError(err)
	}
	m := make([]int, 2*(re.ngroups+1))
	_, _, found, err := re.find(c, t, 0, m)
	if !found || err != nil {
		return nil, err
	}
	return m, nil
}

// bytesText is b as a string without a copy, for searches that only read
// it while they run.
func bytesText(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// Each calls f with each match of re in s, in order, as re.finditer
// finds them: after an empty match the next one may start at the same
// place only if it is not empty (Python 3.7's rule, where regexp2 would
// move on a character). m holds the indices of the match and of its
// groups in bytes; f must not keep it. An error of f stops the search
// at once, and Each returns it.
func (re *Regexp) Each(s string, f func(m []int) error) error {
	if re.literal != "" {
		return eachLiteral(re.literal, s, f)
	}
	t, err := re.decode(s)
	if err != nil {
		return re.engineError(err)
	}
	m := make([]int, 2*(re.ngroups+1))
	pos, afterEmpty := 0, false
	for {
		if afterEmpty {
			ne, err := re.variant(nonEmptyVariant)
			if err != nil {
				return err
			}
			_, end, found, err := re.find(ne, t, pos, m)
			if err != nil {
				return err
			}
			if found {
				if err := f(m); err != nil {
					return err
				}
				pos, afterEmpty = end, false
				continue
			}
			if pos == len(t.runes) {
				return nil
			}
			pos++
		}
		afterEmpty = false
		var ferr error
		err := re.search.FindRunesMatches(t.runes, pos, func(v regexp2.MatchView) bool {
			start, end := re.view(v, t, m)
			if ferr = f(m); ferr != nil {
				return false
			}
			if start == end {
				pos, afterEmpty = start, true
				return false
			}
			return true
		})
		switch {
		case ferr != nil:
			return ferr
		case err != nil:
			return re.engineError(err)
		case !afterEmpty:
			return nil
		}
	}
}

// eachLiteral is Each for a pattern that is a text (not empty): its
// matches are the text's occurrences, one after the other, which
// strings.Index finds far faster than a regular expression engine.
func eachLiteral(lit, s string, f func(m []int) error) error {
	var m [2]int
	for pos := 0; ; {
		i := strings.Index(s[pos:], lit)
		if i < 0 {
			return nil
		}
		m[0] = pos + i
		m[1] = m[0] + len(lit)
		if err := f(m[:]); err != nil {
			return err
		}
		pos = m[1]
	}
}
