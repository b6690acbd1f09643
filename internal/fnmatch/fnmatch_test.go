package fnmatch

import (
	"reflect"
	"testing"
)

// TestLikePython checks Compile against Python 3.11's
// fnmatch.fnmatchcase: globWant is, for each pattern, the globNames it
// matches, as Python answered.
func TestLikePython(t *testing.T) {
	for pat, want := range globWant {
		g := Compile(pat)
		var got []string
		for _, n := range globNames {
			if g.Match(n) {
				got = append(got, n)
			}
		}
		if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("%q matches %q, Python %q", pat, got, want)
		}
	}
}

var globNames = []string{"a", "b", "c", "d", "e", "-", "]", "[", "^", `\`, "&", "ab", "abc", "aXc", "ba", "aab", `a\b`, "xay", "x]y", "a[", "[a", "[!", "é", "éa", "ê", "", "axxbyyb", "x!y", "a]", "zzx", "ay", "[!]", "a[]", "x[!]y"}
var globWant = map[string][]string{
	"*":          {"a", "b", "c", "d", "e", "-", "]", "[", "^", `\`, "&", "ab", "abc", "aXc", "ba", "aab", `a\b`, "xay", "x]y", "a[", "[a", "[!", "é", "éa", "ê", "", "axxbyyb", "x!y", "a]", "zzx", "ay", "[!]", "a[]", "x[!]y"},
	"?":          {"a", "b", "c", "d", "e", "-", "]", "[", "^", `\`, "&", "é", "ê"},
	"a*":         {"a", "ab", "abc", "aXc", "aab", `a\b`, "a[", "axxbyyb", "a]", "ay", "a[]"},
	"*a":         {"a", "ba", "[a", "éa"},
	"a?c":        {"abc", "aXc"},
	"[abc]":      {"a", "b", "c"},
	"[!abc]":     {"d", "e", "-", "]", "[", "^", `\`, "&", "é", "ê"},
	"[a-c]":      {"a", "b", "c"},
	"[!a-c]":     {"d", "e", "-", "]", "[", "^", `\`, "&", "é", "ê"},
	"[]]":        {"]"},
	"[]a]":       {"a", "]"},
	"[!]]":       {"a", "b", "c", "d", "e", "-", "[", "^", `\`, "&", "é", "ê"},
	"[!]a]":      {"b", "c", "d", "e", "-", "[", "^", `\`, "&", "é", "ê"},
	"[a-]":       {"a", "-"},
	"[-a]":       {"a", "-"},
	"[--a]":      {"a", "-", "]", "[", "^", `\`},
	"[a--c]":     {"c"},
	"[a-c-e]":    {"a", "b", "c", "e", "-"},
	"[a-b-c-d]":  {"a", "b", "c", "d", "-"},
	"[z-a]":      {},
	"[!z-a]":     {"a", "b", "c", "d", "e", "-", "]", "[", "^", `\`, "&", "é", "ê"},
	"[c-b-a]":    {"a", "-"},
	"[a-dc-b-e]": {"a", "b", "c", "d", "e", "-"},
	"[":          {"["},
	"a[":         {"a["},
	"[a":         {"[a"},
	"[!":         {"[!"},
	"[!]":        {"[!]"},
	`a\b`:        {`a\b`},
	`[\]`:        {`\`},
	`[\a]`:       {"a", `\`},
	"**a":        {"a", "ba", "[a", "éa"},
	"*a*b*":      {"ab", "abc", "aab", `a\b`, "axxbyyb"},
	"a*b":        {"ab", "aab", `a\b`, "axxbyyb"},
	"[^a]":       {"a", "^"},
	"[&&]":       {"&"},
	"[ab":        {},
	"é?":         {"éa"},
	"[é-ê]":      {"é", "ê"},
	"a[]":        {"a[]"},
	"x[!]y":      {"x[!]y"},
	"[[]":        {"["},
	"[a-c]*[!x]": {"ab", "abc", "aXc", "ba", "aab", `a\b`, "a[", "axxbyyb", "a]", "ay", "a[]"},
}
