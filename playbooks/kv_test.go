package playbooks

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
