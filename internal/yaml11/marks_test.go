package yaml11

import (
	"reflect"
	"testing"
)

func TestMarkUnmarkHasMark(t *testing.T) {
	v := map[string]any{"a": "x", "b": []any{"y", 1, map[string]any{"c": "z"}}, "n": nil}
	m := Mark(v)
	want := map[string]any{"a": Unsafe("x"), "b": []any{Unsafe("y"), 1, map[string]any{"c": Unsafe("z")}}, "n": nil}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("Mark: %#v", m)
	}
	if HasMark(v) || !HasMark(m) || !HasMark([]any{1, []any{Unsafe("")}}) {
		t.Fatal("HasMark")
	}
	if v["a"] != "x" || v["b"].([]any)[0] != "y" {
		t.Fatalf("Mark changed its input: %#v", v)
	}
	if back := Unmark(m); !reflect.DeepEqual(back, v) {
		t.Fatalf("Unmark: %#v", back)
	}
}

// TestUnchangedIsShared: a value with nothing to change comes back as it
// is, not copied.
func TestUnchangedIsShared(t *testing.T) {
	l := []any{1, true, []any{2.5}}
	if out := Mark(l).([]any); &out[0] != &l[0] {
		t.Fatal("Mark copied a list without strings")
	}
	l2 := []any{"a", 1}
	if out := Unmark(l2).([]any); &out[0] != &l2[0] {
		t.Fatal("Unmark copied a list without marks")
	}
}

// TestMarkDepthBounded: a value nested past the bound is left as it is
// instead of recursing without end.
func TestMarkDepthBounded(t *testing.T) {
	var v any = "leaf"
	for range maxMarkDepth + 10 {
		v = []any{v}
	}
	if HasMark(Mark(v)) {
		t.Fatal("a leaf past the depth bound was reached")
	}
}
