package pyre

import (
	"errors"
	"regexp"
)

// ErrTooLarge is SubnCheck's error when the result grows past its bound.
var ErrTooLarge = errors.New("replaced text too large")

// Subn replaces every match of re in src with the template, as Python's
// re.subn: the result and the number of replacements. Like Python 3.7 and
// unlike Go's ReplaceAll, an empty match right after a non-empty one
// counts (re.sub(r'\s*$', 'X', 'a  ') is 'aXX').
func (t *Template) Subn(re *regexp.Regexp, src []byte) ([]byte, int) {
	out, n, _ := t.SubnCheck(re, src, 0, nil)
	return out, n
}

// SubnMax is Subn that gives up (ok false) as soon as the result grows
// past max bytes (0: no bound), for replacements whose size a user
// controls.
func (t *Template) SubnMax(re *regexp.Regexp, src []byte, max int) (result []byte, n int, ok bool) {
	out, n, err := t.SubnCheck(re, src, max, nil)
	return out, n, err == nil
}

// SubnCheck is Subn within bounds: it fails with ErrTooLarge as soon as
// the result grows past max bytes (0: no bound), and it calls check (when
// not nil) before each replacement with the number of bytes of src gone
// through since its last call, stopping with check's error. It holds one
// match at a time (see EachMatch). Without a match, the result is src
// itself.
func (t *Template) SubnCheck(re *regexp.Regexp, src []byte, max int, check func(n int) error) ([]byte, int, error) {
	var out []byte
	last, n := 0, 0
	// pending is the end of the last match when it was not empty: Go
	// skips an empty match there, Python keeps it.
	pending := -1
	var at *anchored
	emptyAt := func(e int) {
		if at == nil {
			at = newAnchored(re)
		}
		if em := at.at(src, e); em != nil && em[1] == e {
			out = t.Expand(out, src, em)
			n++
		}
	}
	err := EachMatch(re, src, t.usesGroups(), func(m []int) error {
		if pending >= 0 && m[0] != pending {
			emptyAt(pending)
		}
		pending = -1
		if check != nil {
			if err := check(m[1] - last + 1); err != nil {
				return err
			}
		}
		if out == nil {
			// most replacements keep the text's size: one allocation
			size := len(src)
			if max > 0 {
				size = min(size, max)
			}
			out = make([]byte, 0, size)
		}
		out = append(out, src[last:m[0]]...)
		out = t.Expand(out, src, m)
		last, n = m[1], n+1
		if m[1] > m[0] {
			pending = m[1]
		}
		if max > 0 && len(out) > max {
			return ErrTooLarge
		}
		return nil
	})
	if err != nil {
		return nil, n, err
	}
	if pending >= 0 {
		emptyAt(pending)
	}
	if n == 0 {
		return src, 0, nil
	}
	out = append(out, src[last:]...)
	if max > 0 && len(out) > max {
		return nil, n, ErrTooLarge
	}
	return out, n, nil
}

// usesGroups reports whether the template refers to a group other than
// the whole match.
func (t *Template) usesGroups() bool {
	for _, p := range t.parts {
		if p.group > 0 {
			return true
		}
	}
	return false
}
