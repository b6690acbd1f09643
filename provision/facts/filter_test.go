package facts

import (
	"reflect"
	"sort"
	"testing"
)

// TestGlobLikePython checks compileGlob against Python 3.11's
// fnmatch.fnmatchcase: globWant is, for each pattern, the globNames it
// matches, as Python answered.
func TestGlobLikePython(t *testing.T) {
	for pat, want := range globWant {
		g := compileGlob(pat)
		var got []string
		for _, n := range globNames {
			if g.match(n) {
				got = append(got, n)
			}
		}
		if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("%q matches %q, Python %q", pat, got, want)
		}
	}
}

// TestFilter checks Filter's rules on a small fact set: the ansible_
// prefix added to patterns without it, gather_subset and module_setup
// under their own names, the empty pattern and no patterns.
func TestFilter(t *testing.T) {
	facts := map[string]any{"os_family": 1, "kernel": 2, "gather_subset": 3, "module_setup": 4, "facter_x": 5, "eth0": 6}
	for _, c := range []struct {
		patterns []string
		want     []string
	}{
		{nil, []string{"eth0", "facter_x", "gather_subset", "kernel", "module_setup", "os_family"}},
		{[]string{""}, []string{"eth0", "facter_x", "gather_subset", "kernel", "module_setup", "os_family"}},
		{[]string{"x", ""}, []string{"eth0", "facter_x", "gather_subset", "kernel", "module_setup", "os_family"}},
		{[]string{"os*"}, []string{"os_family"}},
		{[]string{"ansible_os*"}, []string{"os_family"}},
		{[]string{"*"}, []string{"eth0", "facter_x", "gather_subset", "kernel", "module_setup", "os_family"}},
		{[]string{"ansible_*"}, []string{"eth0", "facter_x", "kernel", "os_family"}},
		{[]string{"gather_subset", "kernel"}, []string{"gather_subset", "kernel"}},
		{[]string{"facter*"}, nil}, // not prefixed, and the fact is ansible_facter_x
		{[]string{"ohai*"}, nil},
		{[]string{" kernel"}, nil},
		{[]string{"[!a]*"}, []string{"eth0", "facter_x", "gather_subset", "kernel", "module_setup", "os_family"}},
		{[]string{"[!g]*"}, []string{"eth0", "facter_x", "kernel", "module_setup", "os_family"}},
	} {
		got := Filter(facts, c.patterns)
		var names []string
		for k := range got {
			names = append(names, k)
		}
		sort.Strings(names)
		if !reflect.DeepEqual(names, c.want) {
			t.Errorf("Filter(%q) = %v, want %v", c.patterns, names, c.want)
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
