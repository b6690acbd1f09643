package commands

import (
	"fmt"
	"math/big"
	"strings"
	"testing"
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
