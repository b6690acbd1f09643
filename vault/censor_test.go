package vault

import (
	"reflect"
	"testing"
)

func TestCensor(t *testing.T) {
	var c Censor
	c.Add("yes")                              // too short: not blanked
	c.Add("hunter2")                          // a secret
	c.Add("hunter2-long")                     // holds the other: blanked whole
	c.AddText("line one is long\nfi\ndone\n") // lines: only long ones
	cases := map[string]string{
		"pw=hunter2-long yes":             "pw=******** yes",
		"hunter2 and hunter2":             "******** and ********",
		"x line one is long fi done done": "x ******** fi done done",
	}
	for in, want := range cases {
		if got := c.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
	v := map[string]any{"msg": "hunter2", "list": []any{"a hunter2", 3}, "hunter2": true}
	want := map[string]any{"msg": Mask, "list": []any{"a " + Mask, 3}, Mask: true}
	if got := c.Value(v); !reflect.DeepEqual(got, want) {
		t.Errorf("Value = %v, want %v", got, want)
	}
	if v["msg"] != "hunter2" {
		t.Error("Value changed its argument")
	}
	var nilC *Censor
	if nilC.String("hunter2") != "hunter2" || !nilC.Empty() {
		t.Error("a nil censor censored")
	}
	var y Censor
	y.AddText("db_password: s3cr3t-hunter2\napi_token: \"tok-é-✓\"\nlist:\n  - one-item\n  - two\n")
	if got := y.String("s3cr3t-hunter2 tok-é-✓ one-item two"); got != "******** ******** ******** two" {
		t.Errorf("vars file values: %q", got)
	}
	var d Censor
	d.AddValue(map[string]any{"a": []any{"deep-secret"}})
	if d.String("deep-secret") != Mask {
		t.Error("AddValue missed a nested string")
	}
}

// TestAddValueAnyStringType: strings of named types (a marked value),
// typed lists and maps are learned too; Values lists them longest first.
func TestAddValueAnyStringType(t *testing.T) {
	type marked string
	var c Censor
	c.AddValue(map[string]any{"stdout": marked("from-the-host"), "lines": []string{"line-secret"},
		"m": map[string]marked{"k": "typed-map-value"}, "short": "ok"})
	for _, s := range []string{"from-the-host", "line-secret", "typed-map-value"} {
		if c.String(s) != Mask {
			t.Errorf("%q not learned", s)
		}
	}
	if got := c.Values(); !reflect.DeepEqual(got, []string{"typed-map-value", "from-the-host", "line-secret"}) {
		t.Errorf("Values = %q", got)
	}
}
