package yaml11

import (
	"reflect"
	"testing"
)

// MarkOwned marks what Mark marks, in place: the same maps and lists come
// back, every string in them Unsafe, other values untouched.
func TestMarkOwned(t *testing.T) {
	build := func() map[string]any {
		return map[string]any{
			"s": "{{ x }}", "n": 3, "b": true, "nil": nil,
			"l": []any{"a", 1, []any{"b"}, map[string]any{"c": "d"}},
			"m": map[string]any{"e": []any{}, "f": "g", "u": Unsafe("h")},
		}
	}
	want := Mark(build())
	v := build()
	l := v["l"].([]any)
	got := MarkOwned(v)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("MarkOwned %#v\nMark %#v", got, want)
	}
	if reflect.ValueOf(got).Pointer() != reflect.ValueOf(v).Pointer() || &l[0] != &got.(map[string]any)["l"].([]any)[0] {
		t.Error("MarkOwned copied a map or a list")
	}
	if got := MarkOwned("x"); got != Unsafe("x") {
		t.Errorf("a string: %#v", got)
	}
}
