package inventory

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/pyfmt"
)

const asciiLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// maxExpand bounds the hosts one entry may expand to (Ansible has no
// bound), so that a typo such as web[1:99999999] fails instead of eating
// the machine.
const maxExpand = 1 << 16

// rangeValueError is a Python ValueError of a host range's bounds or
// step (int() of text that is not a number, a zero step): Ansible's
// host-list and INI plugins fail the source on it, where they leave a
// pattern with another range error as it is.
type rangeValueError struct{ msg string }

func (e *rangeValueError) Error() string { return e.msg }

// rangeSeq is the items of a range as Ansible's expand_hostname_range
// makes them: letters of a-zA-Z when both bounds are in it (Python's slice,
// a step that is not a positive number falling back to numbers), else
// range(int(beg), int(end)+1, int(step)).
func rangeSeq(beg, end, step string, fill func(int) string) ([]string, error) {
	ib, ie := strings.Index(asciiLetters, beg), strings.Index(asciiLetters, end)
	if ib >= 0 && ie >= 0 {
		if ib > ie {
			return nil, fmt.Errorf("host range must have begin <= end")
		}
		if n, err := pyfmt.Int(step); err == nil && n != 0 {
			var seq []string
			if n > 0 {
				for i := ib; i <= ie; i += n {
					seq = append(seq, asciiLetters[i:i+1])
				}
			}
			return seq, nil
		}
	}
	b, err := pyfmt.Int(beg)
	if err != nil {
		return nil, &rangeValueError{err.Error()}
	}
	e, err := pyfmt.Int(end)
	if err != nil {
		return nil, &rangeValueError{err.Error()}
	}
	n, err := pyfmt.Int(step)
	if err != nil {
		return nil, &rangeValueError{err.Error()}
	}
	if n == 0 {
		return nil, &rangeValueError{"range() arg 3 must not be zero"}
	}
	if n > 0 && e >= b && (e-b)/n > maxExpand || n < 0 && b > e && (b-e)/-n > maxExpand {
		return nil, fmt.Errorf("host range [%s:%s] is too large", beg, end)
	}
	var seq []string
	for i := b; n > 0 && i <= e || n < 0 && i > e+1; i += n {
		seq = append(seq, fill(i))
	}
	return seq, nil
}

// expandRange expands the first [beg:end(:step)] of pattern, recursively,
// as Ansible's expand_hostname_range does: zero-padded numbers keep their
// width, single letters range over a-zA-Z.
func expandRange(pattern string) ([]string, error) {
	if !strings.Contains(pattern, "[") {
		return []string{pattern}, nil
	}
	open := strings.Index(pattern, "[")
	close := strings.Index(pattern, "]")
	if close < 0 || strings.Count(pattern, "[") < 1 {
		return nil, fmt.Errorf("host range must be begin:end or begin:end:step")
	}
	// Python replaces the first '[' and the first ']' and splits on them;
	// a ']' before the '[' therefore cannot make three parts.
	if close < open {
		return nil, fmt.Errorf("host range must be begin:end or begin:end:step")
	}
	head, nrange, tail := pattern[:open], pattern[open+1:close], pattern[close+1:]
	if strings.ContainsAny(tail, "|") || strings.ContainsAny(head, "|") {
		return nil, fmt.Errorf("host range must be begin:end or begin:end:step")
	}
	bounds := strings.Split(nrange, ":")
	if len(bounds) != 2 && len(bounds) != 3 {
		return nil, fmt.Errorf("host range must be begin:end or begin:end:step")
	}
	beg, end, step := bounds[0], bounds[1], "1"
	if len(bounds) == 3 {
		step = bounds[2]
	}
	if beg == "" {
		beg = "0"
	}
	if end == "" {
		return nil, fmt.Errorf("host range must specify end value")
	}
	fill := func(n int) string { return strconv.Itoa(n) }
	if beg[0] == '0' && len(beg) > 1 {
		if len(beg) != len(end) {
			return nil, fmt.Errorf("host range must specify equal-length begin and end formats")
		}
		fill = func(n int) string {
			if n < 0 {
				return "-" + fmt.Sprintf("%0*d", len(beg)-1, -n)
			}
			return fmt.Sprintf("%0*d", len(beg), n)
		}
	}
	seq, err := rangeSeq(beg, end, step, fill)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, x := range seq {
		sub, err := expandRange(head + x + tail)
		if err != nil {
			return nil, err
		}
		out = append(out, sub...)
		if len(out) > maxExpand {
			return nil, fmt.Errorf("host range in %q expands to too many hosts", pattern)
		}
	}
	return out, nil
}
