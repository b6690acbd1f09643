package pyfmt

import (
	"math"
	"testing"
)

// The expectations are what CPython 3.11 prints for repr() and json.dumps().
func TestFloat(t *testing.T) {
	for f, want := range map[float64]string{
		1: "1.0", 2.5: "2.5", -0.1: "-0.1", 1e16: "1e+16", 1.5e-5: "1.5e-05", 0.0001: "0.0001",
		123456789012345.0: "123456789012345.0", 1e100: "1e+100", math.Inf(-1): "-inf", 0.30000000000000004: "0.30000000000000004",
	} {
		if got := Float(f); got != want {
			t.Errorf("Float(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestQuote(t *testing.T) {
	for s, want := range map[string]string{
		"a": `'a'`, "it's": `"it's"`, `it's "x"`: `'it\'s "x"'`, "a\nb\t\x01": `'a\nb\t\x01'`,
		"é": `'é'`, "\u0085": `'\x85'`, "\u200b": `'\u200b'`, `back\slash`: `'back\\slash'`,
	} {
		if got := Quote(s); got != want {
			t.Errorf("Quote(%q) = %s, want %s", s, got, want)
		}
	}
}

func TestJSONQuote(t *testing.T) {
	for _, c := range []struct {
		s     string
		ascii bool
		want  string
	}{
		{"a\"b\\", true, `"a\"b\\"`}, {"é", true, `"\u00e9"`}, {"é", false, `"é"`},
		{"😀", true, `"\ud83d\ude00"`}, {"\x7f\x01", true, `"\u007f\u0001"`}, {"\x7f\x01", false, "\"\x7f\\u0001\""},
		{"\b\f", false, `"\b\f"`},
	} {
		if got := JSONQuote(c.s, c.ascii); got != c.want {
			t.Errorf("JSONQuote(%q, %v) = %s, want %s", c.s, c.ascii, got, c.want)
		}
	}
}
