package pyyaml

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

// TestBlockText: with BlockText, values are written as the yaml stdout
// callback writes them (testdata/block.json, recorded from PyYAML with
// its dumper by testdata/gen.py).
func TestBlockText(t *testing.T) {
	data, err := os.ReadFile("testdata/block.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		In  map[string]any `json:"in"`
		Out string         `json:"out"`
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		in := ints(c.In).(map[string]any)
		if got := Dump(in, Options{Indent: 2, BlockText: true}); got != c.Out {
			t.Errorf("%q:\ngot  %q\nwant %q", c.In, got, c.Out)
		}
	}
}

// ints turns JSON's numbers into ints and floats, as Python read them.
func ints(v any) any {
	switch t := v.(type) {
	case json.Number:
		if n, err := t.Int64(); err == nil {
			return int(n)
		}
		f, _ := t.Float64()
		return f
	case []any:
		for i := range t {
			t[i] = ints(t[i])
		}
	case map[string]any:
		for k := range t {
			t[k] = ints(t[k])
		}
	}
	return v
}

// TestFlowLeaves: to_yaml's flow style for collections of scalars, and
// to_nice_yaml's block style with its indent.
func TestFlowLeaves(t *testing.T) {
	v := map[string]any{"a": []any{1, "x"}, "b": map[string]any{"c": []any{map[string]any{"d": nil}}}}
	if got, want := Dump(v, Options{FlowLeaves: true}), "a: [1, x]\nb:\n  c:\n  - {d: null}\n"; got != want {
		t.Errorf("to_yaml: %q, want %q", got, want)
	}
	if got, want := Dump(v, Options{Indent: 4}), "a:\n- 1\n- x\nb:\n    c:\n    -   d: null\n"; got != want {
		t.Errorf("to_nice_yaml: %q, want %q", got, want)
	}
}
