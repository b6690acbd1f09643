package pyre

import (
	"strings"
	"testing"
)

// The expected values are what Python 3.11's re.sub returned for the same
// pattern, template and text.
func TestTemplate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ pattern, tpl, text, want string }{
		{`(a)(b)?`, `[\1|\2|\g<0>|\g<1>0|\101|\0101|\n|\.]`, "ab", "[a|b|ab|a0|A|\x081|\n|\\.]"},
		{`(a)(c)?`, `[\2]`, "a", "[]"},
		{`(?P<x>\w+)=(?P<y>\w+)`, `\g<y>=\g<x>\\`, "k=v", `v=k\`},
		{`(?m)^(\w+)$`, `<\1>`, "ab\ncd\n", "<ab>\n<cd>\n"},
		{`x\Z`, `y`, "axx", "axy"},
		{`a(?#comment)b`, `c`, "ab", "c"},
		{`(?i)A`, `b`, "a", "b"},
		{`(?m)\s*$`, `X`, "a  \nb", "aXX\nbX"},
		{`x*`, `-`, "abxd", "-a-b--d-"},
		{`(?m)\s*$`, ``, "a  \nb  \n", "a\nb"},
		{`(a|)`, `<\1>`, "baac", "<>b<a><a><>c<>"},
	} {
		re, err := Compile(c.pattern, Options{})
		if err != nil {
			t.Errorf("%s: %v", c.pattern, err)
			continue
		}
		tpl, err := ParseTemplate(c.tpl, re)
		if err != nil {
			t.Errorf("%s: %v", c.tpl, err)
			continue
		}
		if got, _ := tpl.Subn(re, []byte(c.text)); string(got) != c.want {
			t.Errorf("sub(%q, %q, %q) = %q, want %q", c.pattern, c.tpl, c.text, got, c.want)
		}
	}
}

// The counts are Python's re.subn's.
func TestSubnCount(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pattern, text string
		n             int
	}{
		{`(?m)\s*$`, "a  \nb  \n", 4},
		{`x*`, "abxd", 5},
		{`(?m)^`, "a\nb\n", 3},
		{`b`, "abcb", 2},
	} {
		re, _ := Compile(c.pattern, Options{})
		tpl, _ := ParseTemplate("", re)
		if _, n := tpl.Subn(re, []byte(c.text)); n != c.n {
			t.Errorf("subn(%q, %q): %d, want %d", c.pattern, c.text, n, c.n)
		}
	}
}

func TestTemplateErrors(t *testing.T) {
	t.Parallel()
	re, _ := Compile(`(a)(?P<n>b)`, Options{})
	for tpl, want := range map[string]string{
		`\10`:     "invalid group reference 10",
		`\g<m>`:   "unknown group name 'm'",
		`\q`:      `bad escape \q`,
		`x\`:      "bad escape (end of pattern)",
		`\g<1`:    "missing >",
		`\g<n>ok`: "",
	} {
		_, err := ParseTemplate(tpl, re)
		if (err == nil) != (want == "") || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("%q: %v, want %q", tpl, err, want)
		}
	}
}

func TestUnsupported(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]string{
		`foo(?=bar)`:     "lookahead",
		`foo(?!bar)`:     "lookahead",
		`(?<=a)b`:        "lookbehind",
		`(?<!a)b`:        "lookbehind",
		`(a)\1`:          "backreference",
		`(?P<x>a)(?P=x)`: "backreference",
		`(?x) a b`:       "flag x",
		`a(`:             "missing ), unterminated subpattern at position 1",
	} {
		_, err := Compile(p, Options{OneLine: true})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", p, err, want)
		}
	}
	// Inside a class, ( and $ are literal; a class may start with ].
	re, err := Compile(`^[]$(?=]+$`, Options{OneLine: true})
	if err != nil || !re.MatchString("$(]\n") || re.MatchString("$(]x\n") {
		t.Fatalf("class: %v", err)
	}
	// $ matches before the line's "\n", not after; ^ only at its start.
	re, _ = Compile(`^b$`, Options{OneLine: true})
	if !re.MatchString("b\n") || re.MatchString("b\r\n") {
		t.Fatal("$ on one line")
	}
	if re, _ := Compile(`^$`, Options{OneLine: true}); re.MatchString("a\n") {
		t.Fatal("^$ matched a non-empty line")
	}
	if re, _ := Compile(`here$`, Options{}); !re.MatchString("error here\n") || re.MatchString("here\nx") {
		t.Fatal("$ on a whole text")
	}
	if re, _ := Compile(`(?m)here$`, Options{}); !re.MatchString("here\nx") {
		t.Fatal("(?m)$ on a whole text")
	}
	if re, _ := Compile(`a{,2}b`, Options{}); !re.MatchString("aab") {
		t.Fatal("{,n}")
	}
}
