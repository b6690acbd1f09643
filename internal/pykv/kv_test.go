package pykv

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// kvCase is one answer of Ansible's parse_kv/split_args, recorded by
// testdata/kv/gen.py.
type kvCase struct {
	In       string          `json:"in"`
	KV       map[string]any  `json:"kv"`
	FreeForm map[string]any  `json:"free_form"`
	Split    json.RawMessage `json:"split"`
}

func TestSplitKVAgainstAnsible(t *testing.T) {
	data, err := os.ReadFile("testdata/kv/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []kvCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 30 {
		t.Fatalf("only %d recorded cases", len(cases))
	}
	for _, c := range cases {
		got, err := SplitKV(c.In)
		checkKV(t, c.In, "kv", got, err, c.KV)
		pairs, raw, err := ParseKV(c.In, true)
		var ff map[string]any
		if err == nil {
			ff = map[string]any{}
			for _, p := range pairs {
				ff[p.Key] = p.Value
			}
			if raw != "" {
				ff["_raw_params"] = raw
			}
		}
		checkKV(t, c.In, "free form", ff, err, c.FreeForm)
		var wantSplit []string
		if json.Unmarshal(c.Split, &wantSplit) == nil {
			words, err := SplitArgs(c.In)
			if err != nil || !reflect.DeepEqual(words, wantSplit) {
				t.Errorf("SplitArgs(%q) = %q, %v; Ansible: %q", c.In, words, err, wantSplit)
			}
		}
	}
}

func checkKV(t *testing.T, in, what string, got map[string]any, err error, want map[string]any) {
	t.Helper()
	if _, ok := want["error"]; ok {
		if err == nil {
			t.Errorf("%s %q: got %v, Ansible fails", what, in, got)
		}
		return
	}
	if err != nil {
		t.Errorf("%s %q: %v; Ansible: %v", what, in, err, want)
		return
	}
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s %q:\n got  %#v\n want %#v", what, in, got, want)
	}
}

func FuzzSplitKV(f *testing.F) {
	data, _ := os.ReadFile("testdata/kv/inputs.txt")
	for _, s := range strings.Split(string(data), "\n") {
		f.Add(s)
	}
	f.Add("a={{ b }} c='{% d %}' \\\n e=\"f\\\"g\" {# h #}")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := SplitKV(s)
		if err == nil && m == nil {
			t.Fatal("nil map without error")
		}
		_, _, _ = ParseKV(s, true)
		words, err := SplitArgs(s)
		if err == nil && strings.TrimSpace(s) != "" && len(words) == 0 && !strings.Contains(s, "\\") {
			t.Fatalf("SplitArgs(%q) lost every word", s)
		}
	})
}

// TestSplitKVKeys: the keys come in the order of Ansible's dict: where
// each was first written, "_raw_params" last unless written as a key.
func TestSplitKVKeys(t *testing.T) {
	for in, want := range map[string][]string{
		"b=1 a=2 b=3":              {"b", "a"},
		"free a=1 word":            {"a", "_raw_params"},
		"_raw_params=x a=1 free":   {"_raw_params", "a"},
		"":                         nil,
		"x='1 2' y=\"3\" z=4 tail": {"x", "y", "z", "_raw_params"},
	} {
		keys, m, err := SplitKVKeys(in)
		if err != nil || !reflect.DeepEqual(keys, want) || len(m) != len(keys) {
			t.Errorf("SplitKVKeys(%q) = %q, %v, %v; want keys %q", in, keys, m, err, want)
		}
	}
	if _, m, _ := SplitKVKeys("b=1 b=3 free _raw_params=x"); m["b"] != "3" || m["_raw_params"] != "free" {
		t.Errorf("later duplicates: %v", m)
	}
}
