package pyre

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

// TestSyntaxErrors compiles the patterns of testdata/syntax.json
// (recorded from Python's re.compile by gen-syntax.py): the same message
// where Python refuses a pattern, none where it compiles. OverflowError (a
// repeat count past Python's limit) is not re.error; \N{name} is checked
// by the name tests.
func TestSyntaxErrors(t *testing.T) {
	data, err := os.ReadFile("testdata/syntax.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		P   string  `json:"p"`
		Err *string `json:"err"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, c := range cases {
		if c.Err != nil && (strings.HasPrefix(*c.Err, "!") || strings.HasPrefix(*c.Err, "undefined character name")) {
			continue // not re.error; \N{name}: tender has no table of names
		}
		got := ""
		if _, err := Compile(c.P, Options{}); err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("%q: %T", c.P, err)
			}
			got = se.Python()
		}
		want := ""
		if c.Err != nil {
			want = *c.Err
		}
		if got != want {
			bad++
			if bad <= 40 {
				t.Errorf("%q: %q, Python: %q", c.P, got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d patterns differ", bad, len(cases))
	}
}

// TestTemplateErrors: a replacement that Python's re.sub refuses gives
// Python's message, which names neither the template nor the pattern
// (recorded from Python 3.11).
func TestTemplateErrors(t *testing.T) {
	for _, c := range []struct{ pat, tpl, want string }{
		{"a", `\1`, "invalid group reference 1 at position 1"},
		{"(a)", `\2`, "invalid group reference 2 at position 1"},
		{"(a)", `\g<zz>`, "unknown group name 'zz'"},
		{"(a)", `\g<>`, "missing group name at position 3"},
		{"(a)", `\g<1a>`, "bad character in group name '1a' at position 3"},
		{"(a)", `\g<1`, "missing >, unterminated name at position 3"},
		{"(a)", `x\`, "bad escape (end of pattern) at position 1"},
	} {
		re, err := Compile(c.pat, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseTemplate(c.tpl, re); err == nil || err.Error() != c.want {
			t.Errorf("%q %q: %v, want %q", c.pat, c.tpl, err, c.want)
		}
	}
}
