package pykv

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// TestSplitKVRandomAgainstAnsible compares SplitKV, ParseKV and SplitArgs
// with ansible-core on random strings (testdata/kv/gen-random.py). Inputs
// on which Ansible itself crashes (an IndexError on leading whitespace) are
// skipped: tender accepts them.
func TestSplitKVRandomAgainstAnsible(t *testing.T) {
	data, err := os.ReadFile("testdata/kv/random.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		In    string          `json:"in"`
		KV    map[string]any  `json:"kv"`
		FF    map[string]any  `json:"ff"`
		Split json.RawMessage `json:"split"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, c := range cases {
		if string(c.Split) == `{"error": "IndexError"}` {
			continue
		}
		got, err := SplitKV(c.In)
		_, wantErr := c.KV["error"]
		if wantErr != (err != nil) || (!wantErr && !(len(got) == 0 && len(c.KV) == 0) && !reflect.DeepEqual(got, c.KV)) {
			if bad++; bad < 15 {
				var sp []string
				sp, _ = SplitArgs(c.In)
				t.Errorf("%q:\n got  %#v %v\n want %#v\n split got %q want %s", c.In, got, err, c.KV, sp, c.Split)
			}
		}
	}
	for _, c := range cases {
		if string(c.Split) == `{"error": "IndexError"}` {
			continue
		}
		pairs, raw, err := ParseKV(c.In, true)
		got := map[string]any{}
		for _, p := range pairs {
			got[p.Key] = p.Value
		}
		if raw != "" {
			got["_raw_params"] = raw
		}
		_, wantErr := c.FF["error"]
		if wantErr != (err != nil) || (!wantErr && !(len(got) == 0 && len(c.FF) == 0) && !reflect.DeepEqual(got, c.FF)) {
			if bad++; bad < 15 {
				t.Errorf("ff %q:\n got  %#v %v\n want %#v", c.In, got, err, c.FF)
			}
		}
		var want []string
		if json.Unmarshal(c.Split, &want) == nil {
			sp, err := SplitArgs(c.In)
			if err != nil || !(len(sp) == 0 && len(want) == 0) && !reflect.DeepEqual(sp, want) {
				if bad++; bad < 15 {
					t.Errorf("split %q:\n got  %q %v\n want %q", c.In, sp, err, want)
				}
			}
		}
	}
	t.Logf("%d/%d differ", bad, len(cases))
}
