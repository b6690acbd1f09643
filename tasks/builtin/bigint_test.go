package builtin

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// Integers past 64 bits in a module's JSON output are Python's ints, as
// json.loads reads them on Ansible's controller.
func TestModuleResultBigInt(t *testing.T) {
	r := moduleResult(`{"changed": false, "n": 18446744073709551616, "m": [-9223372036854775809, 1.5]}`, "", 0, "")
	n, ok := r.Data["n"].(*big.Int)
	if r.Failed || !ok || n.String() != "18446744073709551616" {
		t.Fatalf("%+v", r)
	}
	if m := r.Data["m"].([]any); fmt.Sprint(m[0]) != "-9223372036854775809" || m[1] != 1.5 {
		t.Errorf("m = %#v", m)
	}
	if r := moduleResult(`{"n": `+strings.Repeat("9", 4301)+`}`, "", 0, ""); !r.Failed {
		t.Errorf("a 4301-digit integer (Python's json.loads refuses it): %+v", r.Data)
	}
}

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
