package expr

import (
	"slices"
	"testing"

	"github.com/tender-sh/tender/internal/pydict"
)

func TestKeepUndefinedKeepsWhatItCannotRender(t *testing.T) {
	v := NewVars(map[string]any{
		"l":     []any{"foo{{ nope }}", "{{ ok }}"},
		"ok":    "yes",
		"inner": "{{ nope }}",
		"outer": "{{ inner }}-x",
		"bad":   "{{ 1 + 'a' }}",
	})
	v.KeepUndefined = true
	for name, want := range map[string]any{
		"l":     []any{"foo{{ nope }}", "yes"},
		"outer": "{{ inner }}-x", // the whole string, as Ansible's hostvars
	} {
		got, ok, err := v.Lookup(name)
		if err != nil || !ok || !Equal(got, want) {
			t.Errorf("%s: got %#v, %v, %v; want %#v", name, got, ok, err, want)
		}
	}
	if _, _, err := v.Lookup("bad"); err == nil {
		t.Error("bad: an error that is not an undefined variable must fail")
	}
	if _, _, err := v.With(nil).Lookup("inner"); err != nil {
		t.Errorf("With keeps KeepUndefined: %v", err)
	}
	v.Layers[0]["m"] = pydict.Record(map[string]any{"b": "{{ nope }}", "a": "{{ ok }}"}, []string{"b", "a"})
	if got, _, err := v.Lookup("m"); err != nil || !slices.Equal(pydict.Keys(got.(map[string]any)), []string{"b", "a"}) {
		t.Errorf("m: got %#v, %v; want its keys in their order", got, err)
	}
}
