package pyre

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

// TestBacktrackLikePython runs the backtracking matcher on the cases of
// testdata/backtrack.json (backreferences, lookaround, atomic groups,
// possessive and lazy repeats, conditionals, flags, Unicode) and
// compares the match and its groups with what Python's re.search gave
// (recorded by testdata/backtrack_gen.py).
func TestBacktrackLikePython(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/backtrack.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases [][3]any
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		pattern, text := c[0].(string), c[1].(string)
		re, err := compileBacktrack(pattern, Options{})
		if err != nil {
			t.Errorf("%s: %v", pattern, err)
			continue
		}
		m, err := re.Find([]byte(text))
		if err != nil {
			t.Errorf("%s: %v", pattern, err)
			continue
		}
		var got []any
		if m != nil {
			for i := 0; i < len(m); i += 2 {
				if m[i] < 0 {
					got = append(got, nil)
				} else {
					got = append(got, text[m[i]:m[i+1]])
				}
			}
		}
		want, _ := c[2].([]any)
		if g, w := jsonText(got), jsonText(want); g != w {
			t.Errorf("re.search(%q, %q) = %s, want %s", pattern, text, g, w)
		}
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestCompileMatcherFallsBack: CompileMatcher keeps RE2 for what RE2 can
// do and takes the backtracking matcher for what it cannot; Python's
// errors for patterns neither can run.
func TestCompileMatcherFallsBack(t *testing.T) {
	t.Parallel()
	if m, err := CompileMatcher(`^a+$`, Options{OneLine: true}); err != nil {
		t.Fatal(err)
	} else if _, ok := m.(re2Matcher); !ok {
		t.Errorf("a pattern RE2 runs got %T", m)
	}
	for _, p := range []string{`^(REF) .* \1$`, `a(?=b)`, `(?<=a)b`, `(?>a)`, `a++`, `(?x) a`, `(a)?(?(1)b)`} {
		m, err := CompileMatcher(p, Options{OneLine: true})
		if err != nil {
			t.Errorf("%s: %v", p, err)
		} else if _, ok := m.(*btRegexp); !ok {
			t.Errorf("%s got %T", p, m)
		}
	}
	for p, want := range map[string]string{
		`(a)\2`:       "invalid group reference 2",
		`(a\1)`:       "cannot refer to an open group",
		`(?<=a+)b`:    "look-behind requires fixed-width pattern",
		`(a)(?i)\1`:   "global flags not at the start of the expression",
		`\q(?=x)`:     `bad escape \q`,
		`(?=a`:        "missing ), unterminated subpattern",
		`(?L)(?=a)`:   "cannot use 'L' flag",
		`(a)\1[b`:     "unterminated character set",
		`(?P=n)(?=a)`: "unknown group name 'n'",
		`*(?=a)`:      "nothing to repeat",
		`a**(?=a)`:    "multiple repeat",
	} {
		_, err := CompileMatcher(p, Options{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", p, err, want)
		}
	}
}

// TestBacktrackLimit: a pattern that backtracks catastrophically (Python
// would run for ever) fails with ErrBacktrackLimit in bounded time; a
// group reference in a template works with the matcher's groups.
func TestBacktrackLimit(t *testing.T) {
	t.Parallel()
	m, err := CompileMatcher(`^(a+)+\1b`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Find([]byte(strings.Repeat("a", 40) + "c")); !errors.Is(err, ErrBacktrackLimit) {
		t.Errorf("err = %v, want ErrBacktrackLimit", err)
	}
	// A long text cannot nest the matching deeper than btDepth.
	m, _ = CompileMatcher(`^(a)(?:.)*\1$`, Options{})
	if _, err := m.Find([]byte(strings.Repeat("a", 1_000_000))); !errors.Is(err, ErrBacktrackLimit) {
		t.Errorf("long text: err = %v, want ErrBacktrackLimit", err)
	}
	m, _ = CompileMatcher(`^(?P<k>\w+) (?P=k)$`, Options{OneLine: true})
	tpl, err := ParseTemplate(`\g<k>!`, m)
	if err != nil {
		t.Fatal(err)
	}
	line := []byte("hey hey\n")
	if loc, _ := m.Find(line); loc == nil || string(tpl.Expand(nil, line, loc)) != "hey!" {
		t.Errorf("template on %v", loc)
	}
}
