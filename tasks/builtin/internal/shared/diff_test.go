package shared

import "testing"

func TestUnifiedDiff(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ before, after, want string }{
		{"", "a\n", "--- before: f\n+++ after: f\n@@ -0,0 +1,1 @@\n+a\n"},
		{"a\n", "", "--- before: f\n+++ after: f\n@@ -1,1 +0,0 @@\n-a\n"},
		{"1\n2\n3\n4\n5\nx\n", "1\n2\n3\n4\n5\ny", "--- before: f\n+++ after: f\n@@ -3,4 +3,4 @@\n 3\n 4\n 5\n-x\n+y\n\\ No newline at end of file\n"},
		{"same\n", "same\n", ""},
	} {
		if got := UnifiedDiff("f", c.before, c.after); got != c.want {
			t.Errorf("%q → %q:\n%s\nwant\n%s", c.before, c.after, got, c.want)
		}
	}
}
