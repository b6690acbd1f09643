package pydict

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestDecodeJSONKeepsOrder(t *testing.T) {
	d := json.NewDecoder(strings.NewReader(`{"z": 1, "a": [true, null, {"y": "s", "b": 2.5}], "m": {}, "z": 3}`))
	d.UseNumber()
	v, err := DecodeJSON(d)
	if err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	if got, want := Keys(m), []string{"z", "a", "m"}; !slices.Equal(got, want) {
		t.Fatalf("Keys = %v, want %v", got, want)
	}
	if m["z"] != json.Number("3") {
		t.Fatalf("z = %#v, want the last value 3", m["z"])
	}
	inner := m["a"].([]any)[2].(map[string]any)
	if got, want := Keys(inner), []string{"y", "b"}; !slices.Equal(got, want) {
		t.Fatalf("inner Keys = %v, want %v", got, want)
	}
	if d.More() {
		t.Fatal("input left over")
	}
}

func TestDecodeJSONErrors(t *testing.T) {
	for _, src := range []string{`{"a": }`, `[1, 2`, `{"a" 1}`, strings.Repeat("[", maxJSONDepth+1) + strings.Repeat("]", maxJSONDepth+1)} {
		if _, err := DecodeJSON(json.NewDecoder(strings.NewReader(src))); err == nil {
			t.Errorf("%.20q...: no error", src)
		}
	}
}
