package inventory

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// TestRangeSeqAsPython: a host range's items as Python's
// expand_hostname_range gives them (the answers recorded with Python
// 3.11): letters when both bounds are in a-zA-Z, else numbers, a negative
// step counting down, and Python's ValueError for bounds or a step that
// are not numbers.
func TestRangeSeqAsPython(t *testing.T) {
	for _, c := range []struct{ beg, end, step, want string }{
		{"a", "c", "1", "a,b,c"},
		{"1", "3", "1", "1,2,3"},
		{"5", "2", "-1", "5,4"},
		{"a", "c", "0", "VE invalid literal for int() with base 10: 'a'"},
		{"a", "c", "-1", ""},
		{"1", "j", "1", "VE invalid literal for int() with base 10: 'j'"},
		{"ab", "c", "1", "a,b,c"},
		{" 1", "3", "1", "1,2,3"},
		{"1_0", "12", "1", "10,11,12"},
		{"3", "1", "1", ""},
		{"1", "3", "0", "VE range() arg 3 must not be zero"},
	} {
		seq, err := rangeSeq(c.beg, c.end, c.step, strconv.Itoa)
		got := strings.Join(seq, ",")
		var ve *rangeValueError
		if errors.As(err, &ve) {
			got = "VE " + ve.msg
		} else if err != nil {
			got = "ERR " + err.Error()
		}
		if got != c.want {
			t.Errorf("[%s:%s:%s] = %q, want %q", c.beg, c.end, c.step, got, c.want)
		}
	}
}
