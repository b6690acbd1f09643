package shlex

import (
	"slices"
	"testing"
)

// TestSplit: the answers are Python 3.11's shlex.split for the same input.
func TestSplit(t *testing.T) {
	for in, want := range map[string][]string{
		`vim -f`:                         {"vim", "-f"},
		`  a   b  `:                      {"a", "b"},
		`'/my editor/bin' --wait`:        {"/my editor/bin", "--wait"},
		`"a \"q\" \$x \\ z" b`:           {`a "q" \$x \ z`, "b"},
		"a\\\nb":                         {"a\nb"},
		`a\ b c`:                         {"a b", "c"},
		`x'y'"z"`:                        {"xyz"},
		`-o 'ProxyCommand ssh -W %h:%p'`: {"-o", "ProxyCommand ssh -W %h:%p"},
		`''`:                             {""},
		``:                               nil,
	} {
		got, err := Split(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("Split(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, want := range map[string]string{`'open`: "No closing quotation", `"open`: "No closing quotation", `end\`: "No escaped character", `"end\`: "No escaped character"} {
		if _, err := Split(in); err == nil || err.Error() != want {
			t.Errorf("Split(%q): error %v, want %q", in, err, want)
		}
	}
}
