package pyescape

import "testing"

// TestDecode: the code points are Python 3.11's for the same literals
// ("\\" + s evaluated as a str literal).
func TestDecode(t *testing.T) {
	for _, c := range []struct {
		s       string
		r       rune
		n       int
		kind    Kind
		problem string
	}{
		{`n`, '\n', 1, Simple, ""}, {`\x`, '\\', 1, Simple, ""}, {`"`, '"', 1, Simple, ""}, {`v`, '\v', 1, Simple, ""},
		{`101`, 'A', 3, Octal, ""}, {`0`, 0, 1, Octal, ""}, {`1019`, 'A', 3, Octal, ""}, {`78`, 7, 1, Octal, ""},
		{`x41z`, 'A', 3, Hex, ""}, {`u00e9`, 'é', 5, Hex, ""}, {`U0001F600`, '😀', 9, Hex, ""},
		{`x4`, 0, 0, Hex, "truncated"}, {`xg1`, 0, 0, Hex, "invalid"}, {`U00110000`, 0, 0, Hex, "invalid"}, {`x+1`, 0, 0, Hex, "invalid"},
		{`q`, 0, 0, Unknown, ""}, {`N{DASH}`, 0, 0, Unknown, ""}, {``, 0, 0, Unknown, ""},
	} {
		r, n, kind, problem := Decode(c.s)
		if r != c.r || n != c.n || kind != c.kind || problem != c.problem {
			t.Errorf("Decode(%q) = %q, %d, %d, %q; want %q, %d, %d, %q", c.s, r, n, kind, problem, c.r, c.n, c.kind, c.problem)
		}
	}
}
