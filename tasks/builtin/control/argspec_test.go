package control

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// TestValidateArgumentSpecEnv: the arguments come from the task's
// variables (by the options' names, not their aliases), provided_arguments
// win, a variable that fails to render fails the task, and nothing runs on
// the host.
func TestValidateArgumentSpecEnv(t *testing.T) {
	env, cc := modtest.TestEnv(t, t.TempDir(), map[string]any{"port": "8080", "name": "x", "alias": "y"})
	spec := map[string]any{
		"port":    map[string]any{"type": "int", "required": true},
		"name":    map[string]any{"choices": []any{"x", "z"}},
		"other":   map[string]any{"aliases": []any{"alias"}, "required": true},
		"my-dash": map[string]any{},
	}
	res, err := validateArgumentSpecModule{}.Run(context.Background(), env, tasks.Args{"argument_spec": spec})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Failed || res.Msg != "Validation of arguments failed:\nmissing required arguments: other" {
		t.Fatalf("%+v", res)
	}
	res, err = validateArgumentSpecModule{}.Run(context.Background(), env, tasks.Args{"argument_spec": spec,
		"provided_arguments": map[string]any{"other": 1, "name": "z"}})
	if err != nil || res.Failed || res.Msg != "The arg spec validation passed" || res.Changed {
		t.Fatalf("%+v %v", res, err)
	}
	if !reflect.DeepEqual(res.Data, map[string]any{"validate_args_context": map[string]any{}}) {
		t.Fatalf("%#v", res.Data)
	}
	if cc.Runs != 0 {
		t.Fatalf("%d round trips", cc.Runs)
	}
	broken := *env
	broken.Eval = func(string) (any, error) { return nil, errors.New("boom") }
	if _, err := (validateArgumentSpecModule{}).Run(context.Background(), &broken, tasks.Args{"argument_spec": spec}); err == nil || err.Error() != "boom" {
		t.Fatalf("a variable that fails to render: %v", err)
	}
	broken.Eval = nil
	res, err = validateArgumentSpecModule{}.Run(context.Background(), &broken, tasks.Args{"argument_spec": spec})
	if err != nil || res.Msg != "Validation of arguments failed:\nmissing required arguments: other, port" {
		t.Fatalf("without Eval, only provided_arguments: %+v %v", res, err)
	}
}

// TestCheckArgSpecLeavesInput: the caller's spec and values are not changed.
func TestCheckArgSpecLeavesInput(t *testing.T) {
	spec := map[string]any{"a": map[string]any{"type": "dict", "apply_defaults": true,
		"options": map[string]any{"n": map[string]any{"type": "int", "default": 3}}},
		"l": map[string]any{"type": "list", "elements": "int"}}
	params := map[string]any{"l": []any{"1", "2"}, "a": map[string]any{"n": "4"}}
	got, errs, err := checkArgSpec(spec, params)
	if err != nil || len(errs) != 0 {
		t.Fatal(err, errs)
	}
	if !reflect.DeepEqual(got, map[string]any{"l": []any{1, 2}, "a": map[string]any{"n": 4}}) {
		t.Fatalf("%#v", got)
	}
	if !reflect.DeepEqual(params, map[string]any{"l": []any{"1", "2"}, "a": map[string]any{"n": "4"}}) {
		t.Fatalf("input changed: %#v", params)
	}
	if _, ok := spec["a"].(map[string]any)["options"].(map[string]any)["n"].(map[string]any)["default"].(int); !ok {
		t.Fatal("spec changed")
	}
}

// TestArgSpecBounds: hostile specs and values are refused or stay cheap.
func TestArgSpecBounds(t *testing.T) {
	deep := map[string]any{"x": map[string]any{"type": "str"}}
	for i := 0; i < argSpecMaxDepth+2; i++ {
		deep = map[string]any{"x": map[string]any{"type": "dict", "options": deep}}
	}
	if _, _, err := checkArgSpec(deep, nil); err == nil || !strings.Contains(err.Error(), "options nest deeper than 32 levels") {
		t.Fatalf("deep spec: %v", err)
	}
	var v any = "leaf"
	for i := 0; i < shared.ArgSpecMaxValueDepth+2; i++ {
		v = []any{v}
	}
	if _, _, err := checkArgSpec(map[string]any{"a": map[string]any{"type": "raw"}}, map[string]any{"a": v}); err == nil {
		t.Fatal("deep value accepted")
	}
	if _, err := argTypeDict(strings.Repeat("{'a': ", 10000) + "1" + strings.Repeat("}", 10000)); err == nil {
		t.Fatal("deep literal accepted")
	}
	// A long list of dicts with suboptions: linear work.
	items := make([]any, 200000)
	for i := range items {
		items[i] = map[string]any{"n": "1"}
	}
	spec := map[string]any{"l": map[string]any{"type": "list", "elements": "dict",
		"options": map[string]any{"n": map[string]any{"type": "int", "choices": []any{1, 2}}}}}
	start := time.Now()
	got, errs, err := checkArgSpec(spec, map[string]any{"l": items})
	if err != nil || len(errs) != 0 || got["l"].([]any)[199999].(map[string]any)["n"] != 1 {
		t.Fatal(err, errs)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("200000 elements took %v", d)
	}
	// Many choices against a long list: no product of the two.
	choices := make([]any, 100000)
	values := make([]any, 100000)
	for i := range choices {
		choices[i] = strings.Repeat("c", i%7) + string(rune('a'+i%26)) + strings.Repeat("x", i/26%50)
	}
	for i := range values {
		values[i] = choices[len(choices)-1-i]
	}
	start = time.Now()
	_, errs, err = checkArgSpec(map[string]any{"l": map[string]any{"type": "list", "choices": choices}}, map[string]any{"l": values})
	if err != nil || len(errs) != 0 {
		t.Fatal(err, errs)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("100000 values against 100000 choices took %v", d)
	}
}

// TestArgSpecRefusals: what tender refuses in a spec, with a message that
// names the option.
func TestArgSpecRefusals(t *testing.T) {
	for _, tc := range []struct {
		attrs map[string]any
		want  string
	}{
		{map[string]any{"type": []any{"int"}}, "option 'a': type ['int'] is not one of"},
		{map[string]any{"fallback": nil}, "option 'a': fallback must be a list"},
		{map[string]any{"aliases": 5}, "option 'a': aliases must be a list of names"},
		{map[string]any{"deprecated_aliases": []any{"b"}}, "deprecated_aliases must be a list of dicts"},
		{map[string]any{"options": map[string]any{"n": map[string]any{"required_if": []any{[]any{"x", 1}}}}}, "option 'a -> n': required_if entries"},
		{map[string]any{"required_by": []any{"x"}}, "required_by must be a dict"},
		{map[string]any{"options": []any{"n"}}, "options must be a dict of options"},
	} {
		_, _, err := checkArgSpec(map[string]any{"a": tc.attrs}, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.attrs, err, tc.want)
		}
	}
	// A fallback that would not be called is no problem, as in ansible-core.
	if _, errs, err := checkArgSpec(map[string]any{"a": map[string]any{"fallback": []any{nil}}}, nil); err != nil || errs != nil {
		t.Fatal(err, errs)
	}
}

// FuzzArgSpecDict: converting any text to a dict never panics.
func FuzzArgSpecDict(f *testing.F) {
	for _, s := range []string{"{'a': [1, (2,)], 'b': -0x1f}", `{"a": 1}`, "a=1 b='2 3'", "{'a': '\\x41\\n'}", "{", "k=", "{os.system(1)}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		argTypeDict(s)
		checkArgSpec(map[string]any{"a": map[string]any{"type": "dict", "options": map[string]any{
			"n": map[string]any{"type": "bytes"}}}}, map[string]any{"a": s})
	})
}
