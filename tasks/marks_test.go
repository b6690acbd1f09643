package tasks

import (
	"errors"
	"reflect"
	"testing"

	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/playbooks/expr"
)

// TestDecodeMarks: a typed parameter is data, decoded without its mark;
// a Marked one keeps it, its list pieces included.
func TestDecodeMarks(t *testing.T) {
	spec := &Spec{Module: "m", Params: []Param{
		{Name: "s"}, {Name: "b", Kind: Bool}, {Name: "i", Kind: Int}, {Name: "l", Kind: List},
		{Name: "d", Kind: Dict}, {Name: "r", Kind: Raw},
		{Name: "code", Kind: List, Elements: Raw, Marked: true},
	}}
	v, err := spec.Decode(Args{
		"s": yaml11.Unsafe("text"), "b": yaml11.Unsafe("yes"), "i": yaml11.Unsafe("42"),
		"l": yaml11.Unsafe("a,b"), "d": map[string]any{"k": yaml11.Unsafe("v")}, "r": []any{yaml11.Unsafe("x")},
		"code": yaml11.Unsafe("x == 1,y"),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := Values{"s": "text", "b": true, "i": 42, "l": []any{"a", "b"}, "d": map[string]any{"k": "v"},
		"r": []any{"x"}, "code": []any{yaml11.Unsafe("x == 1"), yaml11.Unsafe("y")}}
	if !reflect.DeepEqual(v, want) {
		t.Fatalf("got %#v\nwant %#v", v, want)
	}
}

// TestScopeEnvHonoursMarks: Condition refuses a marked condition, Template
// gives a marked value back unrendered, and both take a plain string equal
// to a marked argument for marked (a module that decoded it away cannot
// get it evaluated); Eval refuses such text. Plain text is evaluated.
func TestScopeEnvHonoursMarks(t *testing.T) {
	scope := expr.NewVars(map[string]any{"x": 1})
	payload := "x == 1"
	env := ScopeEnv(Args{"that": []any{yaml11.Unsafe(payload)}}, scope)
	for _, c := range []any{yaml11.Unsafe(payload), payload} {
		if _, err := env.Condition(c); err == nil || err.Error() != "Conditional is marked as unsafe, and cannot be evaluated." {
			t.Errorf("Condition(%#v): %v", c, err)
		}
	}
	if ok, err := env.Condition("x == 1 and true"); err != nil || !ok {
		t.Errorf("plain condition: %v %v", ok, err)
	}
	for _, v := range []any{yaml11.Unsafe("{{ x }}"), yaml11.Unsafe(payload), payload} {
		got, err := env.Template(v)
		if err != nil || expr.Str(got) != expr.Str(v) {
			t.Errorf("Template(%#v) = %#v, %v", v, got, err)
		}
	}
	if got, err := env.Template("{{ x + 1 }}"); err != nil || expr.Str(got) != "2" {
		t.Errorf("plain template: %#v %v", got, err)
	}
	if _, err := env.Eval(payload); !errors.Is(err, errEvalMarked) {
		t.Errorf("Eval of a marked argument's text: %v", err)
	}
	if got, err := env.Eval("x + 1"); err != nil || got != 2 {
		t.Errorf("Eval: %#v %v", got, err)
	}
	if got, err := env.Render(payload); err != nil || got != payload {
		t.Errorf("Render: %q %v", got, err)
	}
}

// TestDecodeRefused: an option the module refuses on purpose fails with
// the reason, not as an unknown one.
func TestDecodeRefused(t *testing.T) {
	spec := &Spec{Module: "m", Params: []Param{{Name: "a"}}, Refused: map[string]string{"b": "needs libfoo"}}
	_, err := spec.Decode(Args{"a": "x", "b": "y"})
	if err == nil || err.Error() != "Unsupported parameters for (m) module: b. tender does not implement it: needs libfoo" {
		t.Fatalf("err = %v", err)
	}
	if _, err := spec.Decode(Args{"a": "x"}); err != nil {
		t.Fatal(err)
	}
}
