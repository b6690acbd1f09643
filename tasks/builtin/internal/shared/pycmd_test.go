package shared

import "testing"

// TestPySanitize checks pySanitize and pyCleanArgs against what
// ansible-core 2.14's heuristic_log_sanitize and _clean_args return for
// the same text (taken from running them).
func TestPySanitize(t *testing.T) {
	for in, want := range map[string]string{
		"http://alice:s3cret@example.com/x.git": "http://alice:********@example.com/x.git",
		"https://u:p@h/a and ssh://v:q@k/b":     "https://u:********@h/a and ssh://v:********@k/b",
		"user:pass@host:path":                   "user:********@host:path",
		"ab:c@host":                             "ab:c@host",
		"no secrets here":                       "no secrets here",
		"mail a@b.c at 10:00":                   "mail a@b.c at 10:00",
		"git@github.com:org/repo.git":           "git@github.com:org/repo.git",
		"http://host/x@y":                       "http:********@y",
		"scheme://:@":                           "scheme://:********@",
		"x://a:b@c://d:e@f":                     "x://a:********@c://d:********@f",
	} {
		if got := PySanitize(in); got != want {
			t.Errorf("pySanitize(%q) = %q, want %q", in, got, want)
		}
	}
	for _, c := range []struct {
		argv []string
		want string
	}{
		{[]string{"svn", "--password-from-stdin", "info", "x"}, "svn --password-from-stdin '********' x"},
		{[]string{"x", "--password=abc", "y"}, "x '--password=********' y"},
		{[]string{"x", "-pass", "y"}, "x -pass '********'"},
		{[]string{"git", "clone", "http://a:b@h/x", "dest dir"}, "git clone 'http://a:********@h/x' 'dest dir'"},
		{[]string{"a", "--passwd", "--pass"}, "a --passwd '********'"},
	} {
		if got := PyCleanArgs(c.argv); got != c.want {
			t.Errorf("pyCleanArgs(%q) = %q, want %q", c.argv, got, c.want)
		}
	}
}
