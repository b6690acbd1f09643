package boolean

import "testing"

func TestWord(t *testing.T) {
	for _, c := range []struct {
		in        string
		value, ok bool
	}{
		{"yes", true, true}, {" On\n", true, true}, {"T", true, true}, {"1", true, true}, {"y", true, true},
		{"no", false, true}, {"OFF", false, true}, {"f", false, true}, {"0", false, true}, {"\x1cn\x1f", false, true},
		{"", false, false}, {"1.0", false, false}, {"yess", false, false}, {"none", false, false},
	} {
		if v, ok := Word(c.in); v != c.value || ok != c.ok {
			t.Errorf("Word(%q) = %v, %v; want %v, %v", c.in, v, ok, c.value, c.ok)
		}
		if got := True(c.in); got != (c.value && c.ok) {
			t.Errorf("True(%q) = %v", c.in, got)
		}
	}
}
