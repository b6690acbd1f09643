package playbooks

import "testing"

// TestMappingValueCol: a "mapping values are not allowed" error is
// placed at the colon PyYAML marks, the second mapping indicator of the
// line, quotes and comments aside.
func TestMappingValueCol(t *testing.T) {
	for line, want := range map[string]int{
		"    - name: the workspace (group bits rwx: the ACL mask)": 42,
		"a: b: c":            5,
		"a: 'b: c'":          0,
		"a: it's: here":      8,
		"a: b # c: d":        0,
		"key:":               0,
		"- x: \"q: r\" s: t": 14,
	} {
		if got := mappingValueCol(line); got != want {
			t.Errorf("%q: %d, want %d", line, got, want)
		}
	}
}
