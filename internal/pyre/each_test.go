package pyre

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// EachMatch finds what FindAllSubmatchIndex finds, empty matches,
// context-dependent assertions and invalid UTF-8 included.
func TestEachMatchIsFindAll(t *testing.T) {
	t.Parallel()
	texts := []string{"", "a", "abxd", "baac", "a  \nb  \n", "héllo wörld", "ab\xffcd\xe2\x82", "x\nx\n\nx", "aaaa"}
	patterns := []string{`x*`, `(a|)`, `a`, `\b`, `\B`, `(?m)^`, `(?m)$`, `(?m)^(\w*)$`, `\w+`, `(\w)(\w)?`, `.`, `(?s).`, `[^a]*`, `ö|l+`, `()`, `\s*`, `aa`, `ll`, `ö`, `(a)`, `\x82`}
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		for _, s := range texts {
			want := re.FindAllSubmatchIndex([]byte(s), -1)
			wantWhole := re.FindAllIndex([]byte(s), -1)
			for _, groups := range []bool{true, false} {
				var got [][]int
				err := EachMatch(re, []byte(s), groups, func(m []int) error {
					got = append(got, slices.Clone(m))
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				w := want
				if !groups || re.NumSubexp() == 0 {
					w = wantWhole
				}
				if !slices.EqualFunc(got, w, slices.Equal) {
					t.Errorf("EachMatch(%q, %q, groups=%v) = %v, want %v", p, s, groups, got, w)
				}
			}
		}
	}
}

// An error stops the search at once, and is EachMatch's.
func TestEachMatchStops(t *testing.T) {
	t.Parallel()
	stop := errors.New("stop")
	calls := 0
	err := EachMatch(regexp.MustCompile(`a`), []byte(strings.Repeat("a", 1<<20)), false, func([]int) error {
		calls++
		if calls == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || calls != 3 {
		t.Errorf("err %v after %d calls, want stop after 3", err, calls)
	}
}

// SubnCheck reports the text it went through to check, stops with
// check's error, and fails with ErrTooLarge past its bound, without
// going through the rest of the text.
func TestSubnCheck(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`a`)
	tpl, _ := ParseTemplate("bb", re)
	src := []byte(strings.Repeat("a", 1000))
	seen := 0
	out, n, err := tpl.SubnCheck(re, src, 0, func(k int) error { seen += k; return nil })
	if err != nil || n != 1000 || string(out) != strings.Repeat("b", 2000) || seen < len(src) {
		t.Errorf("SubnCheck: %d replacements, %d bytes out, %d bytes seen, %v", n, len(out), seen, err)
	}
	stop := errors.New("stop")
	calls := 0
	_, n, err = tpl.SubnCheck(re, src, 0, func(int) error {
		if calls++; calls == 10 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || calls != 10 || n != 9 {
		t.Errorf("stopped SubnCheck: %v after %d checks, %d replacements", err, calls, n)
	}
	_, n, err = tpl.SubnCheck(re, src, 100, nil)
	if !errors.Is(err, ErrTooLarge) || n > 51 {
		t.Errorf("bounded SubnCheck: %v after %d replacements, want ErrTooLarge after 51", err, n)
	}
}
