package pydict

import (
	"reflect"
	"testing"
)

// TestMergeHash: dicts on both sides merge recursively, anything else is
// replaced, and the first dict's keys keep their order.
func TestMergeHash(t *testing.T) {
	a := map[string]any{"x": map[string]any{"k": 1, "deep": map[string]any{"a": 1}}, "l": []any{1}, "s": "a"}
	a = Record(a, []string{"s", "x", "l"})
	b := map[string]any{"x": map[string]any{"deep": map[string]any{"b": 2}, "n": 2}, "l": []any{2}, "new": true}
	got := MergeHash(a, b)
	want := map[string]any{"s": "a", "x": map[string]any{"k": 1, "deep": map[string]any{"a": 1, "b": 2}, "n": 2}, "l": []any{2}, "new": true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v", got)
	}
	if k := Keys(got); !reflect.DeepEqual(k, []string{"s", "x", "l", "new"}) {
		t.Errorf("order %v", k)
	}
	if _, ok := a["new"]; ok {
		t.Error("a changed")
	}
}
