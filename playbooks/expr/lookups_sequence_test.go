package expr

import (
	"reflect"
	"testing"
)

// TestSequenceLoopMessages checks what a with_sequence loop fails with:
// the plugin's own message, as ansible-core's lookup_sequence target
// asserts it (lookup() wraps the same text; cases.yaml records those).
func TestSequenceLoopMessages(t *testing.T) {
	for term, want := range map[string]string{
		"start=0 junk=3":                    "unrecognized arguments to with_sequence: ['junk']",
		"junk zz=1 end=3 start=1 format=%x": "unrecognized arguments to with_sequence: ['zz', '_raw_params']",
		"start=A end=3":                     "can't parse start=A as integer",
		"end=B start=A":                     "can't parse start=A as integer",
		"A-4/2":                             "can't parse start=A as integer",
		"1-B/2":                             "can't parse end=B as integer",
		"1-4/C":                             "can't parse stride=C as integer",
		"0664":                              "can't parse end=0664 as integer",
		"start=1":                           "must specify count or end in with_sequence",
		"start=1 end=4 count=2":             "can't specify both count and end in with_sequence",
		"start=4 end=1 stride=2":            "to count backwards make stride negative",
		"start=1 end=4 stride=-2":           "to count forward don't make stride negative",
		"start=1 end=4 format=d":            "bad formatting string: d",
		"count=2 format=%(a)s":              "problem formatting 1 with '%(a)s'",
		`end=3 "open`:                       `failed at splitting arguments, either an unbalanced jinja2 block or quotes: end=3 "open`,
	} {
		_, err := RunLookup(nil, "sequence", []any{term}, nil)
		if err == nil || err.Error() != want {
			t.Errorf("with_sequence: %s: %v, want %q", term, err, want)
		}
	}
	if _, err := RunLookup(nil, "sequence", []any{4}, nil); err == nil || err.Error() != "unknown error parsing with_sequence arguments: 4. Error was: expected string or bytes-like object, got 'int'" {
		t.Errorf("with_sequence: 4 (an int): %v", err)
	}
}

// TestSequenceTerms checks the forms a term takes, among them what Python's
// pattern accepts and the template cases cannot write: a final newline.
func TestSequenceTerms(t *testing.T) {
	for term, want := range map[string][]any{
		"5\n":                       {"1", "2", "3", "4", "5"},
		"2-6/2":                     {"2", "4", "6"},
		"7-8:host%02d":              {"host07", "host08"},
		"0x0A-0XC:%#x":              {"0xa", "0xb", "0xc"},
		"count=3 start=0x_f":        {"15", "16", "17"},
		"start=3 end=0 stride=-1":   {"3", "2", "1", "0"},
		"count=0":                   {},
		"start=1 end=1":             {"1"},
		"end=3 end=2":               {"1", "2"},
		"start=5 count=3 stride=-2": {"5", "3", "1", "-1"}, // end = start + count*stride - 1, as Ansible computes it
		"end=2 format='<%.3d>'":     {"<001>", "<002>"},
		"end=2 format='<%#06x>'":    {"<0x0001>", "<0x0002>"},
	} {
		got, err := RunLookup(nil, "sequence", []any{term}, nil)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("sequence %q = %v, %v; want %v", term, got, err, want)
		}
	}
	// Options given to the lookup itself are ignored, as Ansible does.
	got, err := RunLookup(nil, "sequence", []any{"end=2"}, map[string]any{"start": "0", "bogus": 1})
	if err != nil || !reflect.DeepEqual(got, []any{"1", "2"}) {
		t.Errorf("sequence with options = %v, %v", got, err)
	}
}
