package expr

import "testing"

// TestSplitextKeepsText: a template's text that looks like a dict is read
// as one, unless a filter such as to_json made it; splitext gives a path
// without an extension back itself, so to_json's text stays text
// (ansible-core 2.14: set_fact x: "{{ {'a': 1} | to_json | splitext |
// first }}" is the str '{"a": 1}', and '{"a": 1}' | splitext | first the
// dict).
func TestSplitextKeepsText(t *testing.T) {
	v, err := Render(`{{ ({'a': 1} | to_json | splitext | first) }}`, NewVars(nil))
	if s, ok := v.(string); err != nil || !ok || s != `{"a": 1}` {
		t.Fatalf("to_json's text: %#v %v", v, err)
	}
	v, err = Render(`{{ ('{"a": 1}' | splitext | first) }}`, NewVars(nil))
	if _, ok := v.(map[string]any); err != nil || !ok {
		t.Fatalf("a literal's text: %#v %v", v, err)
	}
}
