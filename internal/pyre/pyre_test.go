package pyre

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestLikePython runs every case of testdata/cases.json (recorded from
// Python 3.11's re by testdata/gen.py): searches, matches, findall,
// finditer and subn with backreferences, lookaround, named groups,
// inline and scoped flags, atomic and possessive groups, conditionals,
// classes, escapes, empty matches, bytes patterns, and Python's errors,
// whose message (and position) must be Python's.
func TestLikePython(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases [][]any
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		op, pattern, fl, text := c[0].(string), c[1].(string), c[2].(string), c[3].(string)
		repl := ""
		if op == "sub" {
			repl = c[4].(string)
		}
		want := c[len(c)-1]
		name := op + "(" + pattern + ", " + fl + ")"
		got, err := runCase(op, pattern, fl, text, repl)
		if w, ok := want.(map[string]any); ok {
			msg := w["error"].(string)
			switch {
			case err == nil:
				t.Errorf("%s on %q: %s, want error %q", name, text, jsonText(got), msg)
			case strings.Contains(msg, " at position ") && !strings.HasSuffix(err.Error(), msg):
				t.Errorf("%s: error %q, want it to end with %q", name, err, msg)
			case !strings.Contains(err.Error(), msg):
				t.Errorf("%s: error %q, want it to contain %q", name, err, msg)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s on %q: %v", name, text, err)
			continue
		}
		if g, w := jsonText(got), jsonText(want); g != w {
			t.Errorf("%s on %q = %s, want %s", name, text, g, w)
		}
	}
}

// runCase runs one case as gen.py runs it in Python. A bytes case ("b")
// has its pattern, text and replacement as UTF-8 bytes and its results
// as latin-1 text.
func runCase(op, pattern, fl, text, repl string) (any, error) {
	o := Options{IgnoreCase: strings.Contains(fl, "i"), Multiline: strings.Contains(fl, "m"),
		DotAll: strings.Contains(fl, "s"), Verbose: strings.Contains(fl, "x"),
		ASCII: strings.Contains(fl, "a"), Bytes: strings.Contains(fl, "b")}
	out := func(s string) string {
		if !o.Bytes {
			return s
		}
		r := make([]rune, len(s))
		for i := 0; i < len(s); i++ {
			r[i] = rune(s[i])
		}
		return string(r)
	}
	re, err := Compile(pattern, o)
	if err != nil {
		return nil, err
	}
	groups := func(m []int) []any {
		if m == nil {
			return nil
		}
		g := make([]any, len(m)/2)
		for i := range g {
			if m[2*i] >= 0 {
				g[i] = out(text[m[2*i]:m[2*i+1]])
			}
		}
		return g
	}
	var m []int
	switch op {
	case "search":
		m, err = re.Search(text)
	case "match":
		m, err = re.Match(text)
	case "fullmatch":
		m, err = re.FullMatch(text)
	case "findall":
		all := []any{}
		err = re.Each(text, func(m []int) error {
			g := groups(m)
			switch len(g) {
			case 1:
				all = append(all, g[0])
			case 2:
				all = append(all, noneEmpty(g[1]))
			default:
				for i := range g {
					g[i] = noneEmpty(g[i])
				}
				all = append(all, g[1:])
			}
			return nil
		})
		return all, err
	case "finditer":
		all := []any{}
		err = re.Each(text, func(m []int) error {
			all = append(all, groups(m))
			return nil
		})
		return all, err
	case "sub":
		tpl, err := ParseTemplate(repl, re)
		if err != nil {
			return nil, err
		}
		res, n, err := tpl.Subn(re, []byte(text))
		return []any{out(string(res)), n}, err
	}
	if err != nil || m == nil {
		return nil, err
	}
	return groups(m), nil
}

// noneEmpty is findall's group: "" for one that did not take part.
func noneEmpty(v any) any {
	if v == nil {
		return ""
	}
	return v
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
