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
