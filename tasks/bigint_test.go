package tasks

import (
	"math/big"
	"reflect"
	"strings"
	"testing"
)

// Integers past 64 bits (a *big.Int from an expression or a YAML file)
// become text, lists and floats as Python converts them; an Int parameter,
// which modules read as a Go int, refuses them as out of range.
func TestDecodeBigInt(t *testing.T) {
	huge, _ := new(big.Int).SetString("18446744073709551616", 10)
	vast, _ := new(big.Int).SetString("1"+strings.Repeat("0", 400), 10)
	spec := Spec{Module: "x", Params: []Param{{Name: "s", Kind: Str}, {Name: "l", Kind: List}, {Name: "f", Kind: Float}, {Name: "n", Kind: Int}}}
	got, err := spec.Decode(Args{"s": huge, "l": huge, "f": huge})
	if err != nil {
		t.Fatal(err)
	}
	want := Values{"s": "18446744073709551616", "l": []any{"18446744073709551616"}, "f": 18446744073709551616.0}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	for _, c := range []struct {
		args Args
		want string
	}{
		{Args{"n": huge}, "18446744073709551616 is out of range"},
		{Args{"n": "99999999999999999999"}, "99999999999999999999 is out of range"},
		{Args{"n": 1e20}, "is out of range"},
		{Args{"f": vast}, "int too large to convert to float"},
	} {
		if _, err := spec.Decode(c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err = %v, want %q", c.args, err, c.want)
		}
	}
}
