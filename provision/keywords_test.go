package provision

import (
	"strings"
	"testing"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
)

// TestBadBooleanKeyword: a keyword that is not a boolean fails with
// Ansible's message (recorded from ansible-core 2.14 in
// testdata/engine/runtime, where the engine case elides it), naming the
// field and the value.
func TestBadBooleanKeyword(t *testing.T) {
	for _, c := range []struct {
		b    playbooks.Bool
		want string
	}{
		{playbooks.Bool{Set: true, Bad: "yes."}, "the field 'diff' has an invalid value (yes.), and could not be converted to an bool.The error was: The value 'yes.' is not a valid boolean.  Valid booleans include: "},
		{playbooks.Bool{Set: true, Bad: []any{1}}, "the field 'diff' has an invalid value ([1]), and could not be converted to an bool.The error was: unhashable type: 'list'. unhashable type: 'list'"},
		{playbooks.Bool{Set: true, Expr: "{{ 'maybe' }}"}, "the field 'diff' has an invalid value ({{ 'maybe' }}), and could not be converted to an bool.The error was: The value 'maybe' is not a valid boolean."},
	} {
		_, err := boolValue(c.b, expr.NewVars(nil))
		if err == nil {
			t.Fatalf("%+v: no error", c.b)
		}
		if got := fieldError(&playbooks.Task{}, "diff", c.b, err).Error(); !strings.HasPrefix(got, c.want) {
			t.Errorf("%+v:\n got %s\nwant %s…", c.b, got, c.want)
		}
	}
	if v, err := boolValue(playbooks.Bool{Set: true, Expr: "{{ 'yes' }}"}, expr.NewVars(nil)); err != nil || !v {
		t.Errorf("a template that renders yes: %v %v", v, err)
	}
	// Ansible's strict boolean(): 1, 1.0 and the strings in any case
	// around spaces; not 13, nor an empty string.
	for v, want := range map[any]bool{1: true, 0: false, 1.0: true, " YeS ": true, "Off": false} {
		if got, err := toBool(v); err != nil || got != want {
			t.Errorf("%#v: %v %v", v, got, err)
		}
	}
	for _, v := range []any{13, 2.5, "", "maybe"} {
		if _, err := toBool(v); err == nil || !strings.HasPrefix(err.Error(), "The value '"+expr.Str(v)+"' is not a valid boolean.") {
			t.Errorf("%#v: %v", v, err)
		}
	}
}

// TestIntField: an integer keyword is read with Python's int(), with
// Ansible's messages (recorded from ansible-core 2.14 in
// testdata/engine/fielderrors, where the engine case elides them); omit
// leaves it unset, and retries keeps a negative value.
func TestIntField(t *testing.T) {
	scope := expr.NewVars(map[string]any{"n": -2})
	for _, c := range []struct {
		name string
		v    any
		want string
	}{
		{"retries", "abc", "the field 'retries' has an invalid value (abc), and could not be converted to an int.The error was: invalid literal for int() with base 10: 'abc'"},
		{"delay", "0.5", "the field 'delay' has an invalid value (0.5), and could not be converted to an int.The error was: invalid literal for int() with base 10: '0.5'"},
		{"retries", "{{ nope }}", "The field 'retries' has an invalid value, which includes an undefined variable. The error was: 'nope' is undefined. 'nope' is undefined"},
	} {
		_, err := intField(&playbooks.Task{Pos: playbooks.Pos{File: "/nonexistent.yml", Line: 4, Col: 7}}, c.name, c.v, scope)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s %v:\n got %v\nwant %s…", c.name, c.v, err, c.want)
		}
	}
	if n, err := intField(&playbooks.Task{}, "async", " 10 ", scope); n != 10 || err != nil {
		t.Errorf("' 10 ': %d %v", n, err)
	}
	if n, err := intField(&playbooks.Task{}, "retries", "{{ n }}", scope); n != -2 || err != nil {
		t.Errorf("a negative retries: %d %v", n, err)
	}
	if _, err := intField(&playbooks.Task{}, "poll", "{{ omit }}", expr.NewVars(map[string]any{"omit": expr.Omit})); err != errOmitted {
		t.Errorf("omit: %v", err)
	}
}
