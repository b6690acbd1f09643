package system

import (
	"reflect"
	"testing"
)

// TestLocaleAvailable checks which names locale_gen finds in
// /etc/locale.gen (commented or not) and in SUPPORTED (uncommented only),
// compared exactly.
func TestLocaleAvailable(t *testing.T) {
	gen := "# comment line\n# en_US.UTF-8 UTF-8\nde_DE@euro ISO-8859-15  \n#  fr_FR ISO-8859-1\n#C.UTF-8 UTF-8\nbad_line\n"
	sup := "en_US.UTF-8 UTF-8\n# de_DE.UTF-8 UTF-8\nsr_RS@latin UTF-8\n"
	cases := []struct {
		text, name string
		ubuntu     bool
		want       bool
	}{
		{gen, "en_US.UTF-8", false, true},
		{gen, "en_US.utf8", false, false},
		{gen, "de_DE@euro", false, true},
		{gen, "fr_FR", false, true},
		{gen, "C.UTF-8", false, false},
		{gen, "bad_line", false, false},
		{gen, "comment", false, false},
		{sup, "en_US.UTF-8", true, true},
		{sup, "de_DE.UTF-8", true, false},
		{sup, "sr_RS@latin", true, true},
		{sup, "sr_RS", true, false},
	}
	for _, c := range cases {
		if got := localeAvailable(c.text, c.name, c.ubuntu); got != c.want {
			t.Errorf("%q (ubuntu %v): got %v", c.name, c.ubuntu, got)
		}
	}
}

// TestLocalePresent checks the comparison with locale -a's spellings.
func TestLocalePresent(t *testing.T) {
	listed := "C\nC.utf8\nPOSIX\nen_US.utf8\nde_DE.iso885915@euro\nsr_RS@latin\n"
	for name, want := range map[string]bool{"en_US.UTF-8": true, "en_US.utf8": true, "de_DE.ISO-8859-15@euro": true,
		"sr_RS@latin": true, "en_US": false, "de_DE@euro": false, "fr_FR.UTF-8": false} {
		if got := localePresent(listed, name); got != want {
			t.Errorf("%q: got %v", name, got)
		}
	}
}

// TestSetLocaleLines checks the rewriting of /etc/locale.gen.
func TestSetLocaleLines(t *testing.T) {
	text := "# en_US ISO-8859-1\n# en_US.UTF-8 UTF-8\nen_GB.UTF-8 UTF-8\n#en_US.UTF-8 UTF-8\n"
	got, err := setLocaleLines(text, "en_US.UTF-8", true)
	if want := "# en_US ISO-8859-1\nen_US.UTF-8 UTF-8\nen_GB.UTF-8 UTF-8\nen_US.UTF-8 UTF-8\n"; err != nil || got != want {
		t.Errorf("enable: %q %v", got, err)
	}
	got, _ = setLocaleLines(got, "en_US.UTF-8", false)
	if want := "# en_US ISO-8859-1\n# en_US.UTF-8 UTF-8\nen_GB.UTF-8 UTF-8\n# en_US.UTF-8 UTF-8\n"; got != want {
		t.Errorf("disable: %q", got)
	}
	if _, err := setLocaleLines(text, "a_(b", true); err == nil {
		t.Error("a bad pattern compiled")
	}
}

// TestDropLocalLine checks the rewriting of supported.d/local and where
// a malformed line stops it.
func TestDropLocalLine(t *testing.T) {
	c, crash := dropLocalLine("de_DE.UTF-8 UTF-8\nen_US.UTF-8 UTF-8\n", "en_US.UTF-8")
	if c != "de_DE.UTF-8 UTF-8\n" || crash != "" {
		t.Errorf("got %q %q", c, crash)
	}
	c, crash = dropLocalLine("a_B x\nbroken\nc_D y\n", "c_D")
	if c != "a_B x\n" || crash != "ValueError: not enough values to unpack (expected 2, got 1)" {
		t.Errorf("got %q %q", c, crash)
	}
	if _, crash = dropLocalLine("a b c\n", "x"); crash != "ValueError: too many values to unpack (expected 2)" {
		t.Errorf("got %q", crash)
	}
}

// TestPySplitLines checks str.splitlines' separators.
func TestPySplitLines(t *testing.T) {
	got := pySplitLines("a\nb\r\nc\rd\x0be\u2028f\n")
	if want := []string{"a", "b", "c", "d", "e", "f"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q", got)
	}
	if got := pySplitLines(""); len(got) != 0 {
		t.Errorf("got %q", got)
	}
}
