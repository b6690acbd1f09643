package provision

import (
	"reflect"
	"testing"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/playbooks/expr"
)

// TestRemoveOmit: omit is dropped from dicts at any depth, dicts inside
// lists included, and kept as its placeholder text as a list's item.
func TestRemoveOmit(t *testing.T) {
	in := map[string]any{"path": "/tmp/x", "mode": expr.Omit,
		"l": []any{expr.Omit, 1, map[string]any{"a": expr.Omit, "b": 2}}, "d": map[string]any{"z": expr.Omit}}
	got := removeOmit(in)
	want := map[string]any{"path": "/tmp/x", "l": []any{expr.Str(expr.Omit), 1, map[string]any{"b": 2}}, "d": map[string]any{}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v\nwant %#v", got, want)
	}
	ordered := pydict.NewBuilder(3)
	ordered.Set("z", 1)
	ordered.Set("o", expr.Omit)
	ordered.Set("a", 2)
	if keys := pydict.Keys(removeOmit(ordered.Map()).(map[string]any)); !reflect.DeepEqual(keys, []string{"z", "a"}) {
		t.Errorf("the keys' order: %v", keys)
	}
	if _, isMap := in["mode"]; !isMap {
		t.Error("the value given was changed")
	}
}
