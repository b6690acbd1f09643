package pyre

import (
	"strings"
	"testing"
	"time"
)

// FuzzCompile: any pattern either compiles (and its translation is one
// regexp2 accepts: Compile would say otherwise) or is refused with a
// message naming it; a compiled one searches, finds all, substitutes
// and matches bytes within its bound, without a panic.
func FuzzCompile(f *testing.F) {
	for _, p := range []string{`(a)\1`, `(?<=a)b`, `(?P<n>x)(?P=n)`, `[^\W\d]+`, `(?x) a # c`, `(?i:a)b*+`,
		`(a)?(?(1)b|c)`, `\N{EM DASH}`, `a{2,}?$`, `\bé\B`, `[\x00-\xff]`, `(?s).*\Z`} {
		f.Add(p, "ab aab é\n", "[\\1]")
	}
	f.Fuzz(func(t *testing.T, pattern, text, repl string) {
		for _, bytes := range []bool{false, true} {
			re, err := Compile(pattern, Options{Bytes: bytes, Timeout: 50 * time.Millisecond})
			if err != nil {
				if !strings.Contains(err.Error(), "regular expression") {
					t.Fatalf("%q: error %v does not name the pattern", pattern, err)
				}
				continue
			}
			re.Search(text)
			re.Match(text)
			re.FullMatch(text)
			n := 0
			re.Each(text, func(m []int) error {
				if m[0] < 0 || m[1] < m[0] || m[1] > len(text) {
					t.Fatalf("%q on %q: bad match %v", pattern, text, m)
				}
				n++
				return nil
			})
			if n > len(text)+1 {
				t.Fatalf("%q on %q: %d matches", pattern, text, n)
			}
			if tpl, err := ParseTemplate(repl, re); err == nil {
				tpl.SubnCheck(re, []byte(text), 1<<20, nil)
			}
		}
	})
}
