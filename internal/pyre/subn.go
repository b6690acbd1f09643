package pyre

import (
	"errors"
)

// ErrTooLarge is SubnCheck's error when the result grows past its bound.
var ErrTooLarge = errors.New("replaced text too large")

// SubnCheck replaces every match of re in src with the template, as
// Python's re.subn: the result and the number of replacements (an empty
// match right after a non-empty one counts: re.sub(r'\s*$', 'X', 'a  ')
// is 'aXX'). It fails with ErrTooLarge as soon as the result grows past
// max bytes (0: no bound), and it calls check (when not nil) before
// each replacement with the number of bytes of src gone through since
// its last call, stopping with check's error; a search past its bounds
// fails too. Without a match, the result is src itself.
func (t *Template) SubnCheck(re *Regexp, src []byte, max int, check func(n int) error) ([]byte, int, error) {
	var out []byte
	last, n := 0, 0
	err := re.Each(bytesText(src), func(m []int) error {
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
		if max > 0 && len(out) > max {
			return ErrTooLarge
		}
		return nil
	})
	if err != nil {
		return nil, n, err
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

// Subn is SubnCheck without bounds beyond the search's own.
func (t *Template) Subn(re *Regexp, src []byte) ([]byte, int, error) {
	return t.SubnCheck(re, src, 0, nil)
}
