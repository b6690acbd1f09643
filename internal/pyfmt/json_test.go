package pyfmt

import (
	"math"
	"math/big"
	"testing"
)

// The expected strings are what Python 3's json.dumps(v, sort_keys=True,
// ...) prints for the same values.
func TestJSON(t *testing.T) {
	v := map[string]any{"b": []any{1, 2.5, "é", nil, true}, "a": map[string]any{}, "c": []any{}, "d": math.Inf(1)}
	for _, c := range []struct {
		o    JSONOptions
		want string
	}{
		{JSONOptions{ASCII: true}, `{"a": {}, "b": [1, 2.5, "\u00e9", null, true], "c": [], "d": Infinity}`},
		{JSONOptions{Pretty: true, Indent: 2}, "{\n  \"a\": {},\n  \"b\": [\n    1,\n    2.5,\n    \"é\",\n    null,\n    true\n  ],\n  \"c\": [],\n  \"d\": Infinity\n}"},
	} {
		got, err := JSON(v, c.o)
		if err != nil || got != c.want {
			t.Errorf("JSON(%+v) = %q, %v\nwant %q", c.o, got, err, c.want)
		}
	}
	type odd struct{}
	if _, err := JSON([]any{odd{}}, JSONOptions{}); err == nil {
		t.Error("an unknown type encoded without error")
	}
	got, err := JSON([]any{odd{}}, JSONOptions{Convert: func(any) (any, error) { return "x", nil }})
	if err != nil || got != `["x"]` {
		t.Errorf("Convert: %q %v", got, err)
	}
	if got, _ := JSON([]any{1}, JSONOptions{Pretty: true}); got != "[\n1\n]" {
		t.Errorf("indent 0: %q", got)
	}
	huge, _ := new(big.Int).SetString("-18446744073709551616", 10)
	if got, err := JSON(map[string]any{"n": huge}, JSONOptions{}); err != nil || got != `{"n": -18446744073709551616}` {
		t.Errorf("an integer past 64 bits: %q %v", got, err)
	}
}
