package control

import (
	"math/big"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// validate_argument_spec takes integers past 64 bits as Python's ints:
// int and list types keep or print them, float converts them, choices
// compare them exactly.
func TestArgSpecBigInt(t *testing.T) {
	huge := func(s string) *big.Int { b, _ := new(big.Int).SetString(s, 10); return b }
	spec := map[string]any{"n": map[string]any{"type": "int"}, "f": map[string]any{"type": "float"},
		"c": map[string]any{"type": "int", "choices": []any{huge("18446744073709551616"), 1}}, "l": map[string]any{"type": "list"}}
	got, errs, err := checkArgSpec(spec, map[string]any{"n": huge("18446744073709551616"), "f": huge("18446744073709551617"),
		"c": huge("18446744073709551616"), "l": huge("18446744073709551616")})
	if err != nil || len(errs) != 0 {
		t.Fatal(err, errs)
	}
	want := map[string]any{"n": huge("18446744073709551616"), "f": 18446744073709551616.0, "c": huge("18446744073709551616"),
		"l": []any{shared.PyStr("18446744073709551616")}}
	for k, w := range want {
		if g := got[k]; shared.PyClass(g) != shared.PyClass(w) || !shared.PyEqual(g, w) {
			t.Errorf("%s = %s (%s), want %s (%s)", k, shared.PyRepr(g), shared.PyClass(g), shared.PyRepr(w), shared.PyClass(w))
		}
	}
	_, errs, err = checkArgSpec(spec, map[string]any{"c": huge("18446744073709551617")})
	if err != nil || len(errs) != 1 || !strings.Contains(errs[0], "value of c must be one of: 18446744073709551616, 1, got: 18446744073709551617") {
		t.Errorf("a big int not among the choices: %v %q", err, errs)
	}
}

// TestValidateArgumentSpecRegistered: playbooks and roles' argument specs
// reach validate_argument_spec by its short and fully qualified names, and
// the engine treats it as any controller action (no Traits but NoAsync
// and Controller: its result is not the playbook's own, as set_fact's
// is).
func TestValidateArgumentSpecRegistered(t *testing.T) {
	r := &tasks.Registry{}
	Register(r)
	for _, name := range []string{"validate_argument_spec", "ansible.builtin.validate_argument_spec", "ansible.legacy.validate_argument_spec"} {
		d, ok := r.Def(name)
		if !ok {
			t.Fatalf("%s is not registered", name)
		}
		if _, ok := d.New().(validateArgumentSpecModule); !ok || d.Traits != (tasks.Traits{NoAsync: true, Action: true, Controller: true}) || d.RawParams {
			t.Errorf("%s: %+v", name, d)
		}
	}
}
