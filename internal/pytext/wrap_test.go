package pytext

import "testing"

// TestFill: text laid out as Python 3.11's textwrap.wrap with its
// defaults, joined with newlines (recorded with textwrap.wrap).
func TestFill(t *testing.T) {
	for _, c := range []struct {
		text  string
		width int
		want  string
	}{
		{"[WARNING]: conditional statements should not include jinja2 templating delimiters such as {{ }} or {% %}. Found: \"{{ foo }}\" == \"bar\"", 79,
			"[WARNING]: conditional statements should not include jinja2 templating\ndelimiters such as {{ }} or {% %}. Found: \"{{ foo }}\" == \"bar\""},
		{"[WARNING]: provided hosts list is empty, only localhost is available. Note that the implicit localhost does not match 'all'", 79,
			"[WARNING]: provided hosts list is empty, only localhost is available. Note that\nthe implicit localhost does not match 'all'"},
		{"[WARNING]: a\tb\nc  d well-known-hyphenated-words-are-split-here aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa z", 30,
			"[WARNING]: a    b c  d well-\nknown-hyphenated-words-are-\nsplit-here aaaaaaaaaaaaaaaaaaa\naaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\naaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\naaaaaaaaaaaaaa z"},
		{"[WARNING]: x\n\n  y", 79, "[WARNING]: x    y"},
	} {
		if got := Fill(c.text, c.width); got != c.want {
			t.Errorf("%q:\ngot  %q\nwant %q", c.text, got, c.want)
		}
	}
}
