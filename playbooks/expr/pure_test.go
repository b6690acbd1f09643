package expr

import (
	"errors"
	"testing"
)

// TestPureRefusesWhatCouldChange: under Env.Pure, lookups, now(), random
// filters and volatile variables are refused, and Hit records it even
// where the template swallowed the error; plain templates render as ever.
func TestPureRefusesWhatCouldChange(t *testing.T) {
	for _, tc := range []struct {
		src    string
		impure bool
	}{
		{"{{ a + 1 }}", false},
		{"{{ a | string | upper }}", false},
		{"{{ b }}", true},
		{"{{ lookup('env', 'HOME') }}", true},
		{"{{ lookup('env', 'HOME', errors='ignore') | default('x') }}", true},
		{"{{ now() }}", true},
		{"{{ [1, 2] | random }}", true},
		{"{{ [1, 2] | shuffle }}", true},
		{"{{ 'x' | password_hash('sha512') }}", true},
		{"{{ q('items', [1]) }}", true},
		{"{{ template_run_date }}", true},
	} {
		p := &Pure{Volatile: map[string]bool{"b": true}}
		v := NewVars(map[string]any{"a": 1, "b": []any{"h"}})
		v.Env = &Env{Pure: p}
		_, err := Render(tc.src, WithVars(v, TemplateVars("t.j2", "t.j2", nil)))
		if p.Hit() != tc.impure {
			t.Errorf("%s: hit %v, want %v (err %v)", tc.src, p.Hit(), tc.impure, err)
		}
		if !tc.impure && err != nil {
			t.Errorf("%s: %v", tc.src, err)
		}
		if tc.src == "{{ b }}" && !errors.Is(err, ErrImpure) {
			t.Errorf("%s: %v, want ErrImpure", tc.src, err)
		}
	}
}
