package yaml11

import (
	"strings"
	"testing"
)

// TestVarsList: a play's vars file is a mapping or a list of mappings;
// anything else is refused with Ansible's words.
func TestVarsList(t *testing.T) {
	d := NewDecoder()
	for src, want := range map[string]int{"a: 1\nb: 2\n": 1, "- a: 1\n- b: 2\n  c: 3\n": 2, "": 0, "[]": 0} {
		ms, err := d.VarsList([]byte(src), "f.yml")
		if err != nil || len(ms) != want {
			t.Errorf("%q: %v %v", src, ms, err)
		}
	}
	for _, src := range []string{"- a: 1\n- 2\n", "just text\n", "3\n"} {
		if _, err := d.VarsList([]byte(src), "f.yml"); err == nil || !strings.Contains(err.Error(), "a dictionary of variables, or a list of dictionaries") {
			t.Errorf("%q: %v", src, err)
		}
	}
}
