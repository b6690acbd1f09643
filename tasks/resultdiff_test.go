package tasks

import "testing"

// TestResultDiff renders module diffs as ansible-core 2.14's default
// callback does (recorded with its _get_diff): two hunks where the
// changes are far apart, headers, a missing last newline, dicts as JSON,
// notes and prepared text.
func TestRenderDiff(t *testing.T) {
	for _, c := range []struct {
		name string
		diff any
		want string
	}{
		{"two hunks", map[string]any{"before_header": "/f", "after_header": "/f",
			"before": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "after": "1\nX\n3\n4\n5\n6\n7\n8\n9\nY\n"},
			"--- before: /f\n+++ after: /f\n@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n 5\n@@ -7,4 +7,4 @@\n 7\n 8\n 9\n-10\n+Y\n\n"},
		{"no newline", map[string]any{"before": "a", "after": "b\n"},
			"--- before\n+++ after\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\n"},
		{"dicts", []any{map[string]any{"before": map[string]any{"b": 1, "a": []any{1}}, "after": map[string]any{"a": []any{1}}}},
			"--- before\n+++ after\n@@ -1,6 +1,5 @@\n {\n     \"a\": [\n         1\n-    ],\n-    \"b\": 1\n+    ]\n }\n\n"},
		{"notes", map[string]any{"dst_binary": 1, "src_larger": 64, "prepared": "ready\n"},
			"diff skipped: destination file appears to be binary\ndiff skipped: source file size is greater than 64\nready\n"},
		{"same", map[string]any{"before": "x\n", "after": "x\n"}, ""},
	} {
		if got := RenderDiff(c.diff); got != c.want {
			t.Errorf("%s:\n%q\nwant\n%q", c.name, got, c.want)
		}
	}
}
