package report

import (
	"math"
	"math/big"
	"testing"

	"github.com/tender-sh/tender/internal/yaml11"
)

// TestMarshalAsPython: results are written as Python's json.dumps writes
// them in Ansible's callbacks (sort_keys, ensure_ascii=False): a float
// keeps its ".0", infinities are Python's literals, an unsafe string and
// typed slices and maps are plain JSON, and indented output separates
// items with "," alone.
func TestMarshalAsPython(t *testing.T) {
	m := map[string]any{
		"f": 3.0, "big": 1e100, "inf": math.Inf(1), "n": int64(7), "u": big.NewInt(1),
		"s": yaml11.Unsafe("<é>"), "l": []string{"a"}, "m": map[string]int{"k": 1},
		"st": struct {
			A float64 `json:"a"`
		}{2.5},
	}
	want := `{"big": 1e+100, "f": 3.0, "inf": Infinity, "l": ["a"], "m": {"k": 1}, "n": 7, "s": "<é>", "st": {"a": 2.5}, "u": 1}`
	if got := compact(m); got != want {
		t.Errorf("compact:\n got %s\nwant %s", got, want)
	}
	data, err := marshal(map[string]any{"a": []any{1.5, nil}, "b": true}, "    ")
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n    \"a\": [\n        1.5,\n        null\n    ],\n    \"b\": true\n}"; string(data) != want {
		t.Errorf("indented:\n%s\nwant\n%s", data, want)
	}
}
