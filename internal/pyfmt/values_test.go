package pyfmt

import (
	"math/big"
	"testing"
)

type named string

func TestReprStrTypeName(t *testing.T) {
	for _, c := range []struct {
		v               any
		repr, str, name string
	}{
		{nil, "None", "None", "NoneType"},
		{true, "True", "True", "bool"},
		{3, "3", "3", "int"},
		{new(big.Int).Lsh(big.NewInt(-1), 64), "-18446744073709551616", "-18446744073709551616", "int"},
		{30.0, "30.0", "30.0", "float"},
		{"it's", `"it's"`, "it's", "str"},
		{named("x"), "'x'", "x", "str"},
		{[]any{1, "a", nil}, "[1, 'a', None]", "[1, 'a', None]", "list"},
		{map[string]any{"b": 1, "a": []any{}}, "{'a': [], 'b': 1}", "{'a': [], 'b': 1}", "dict"},
		{struct{}{}, "{}", "{}", "object"},
	} {
		if got := Repr(c.v); got != c.repr {
			t.Errorf("Repr(%#v) = %s, want %s", c.v, got, c.repr)
		}
		if got := Str(c.v); got != c.str {
			t.Errorf("Str(%#v) = %s, want %s", c.v, got, c.str)
		}
		if got := TypeName(c.v); got != c.name {
			t.Errorf("TypeName(%#v) = %s, want %s", c.v, got, c.name)
		}
	}
}
