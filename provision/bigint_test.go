package provision_test

import (
	"math/big"
	"strings"
	"testing"
)

// Integers past 64 bits reach modules, facts, stats and output exactly,
// as Python's ints do; a module parameter that needs a Go int refuses
// one too large instead of wrapping it.
func TestBigIntegers(t *testing.T) {
	out, recap, err := play(t, "a ansible_connection=local\nb ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  vars:
    big: 9223372036854775807
    huge: 36893488147419103228
  tasks:
    - set_stats:
        data: {n: "{{ big }}"}
    - set_stats:
        data: {n: "{{ big }}"}
    - set_fact:
        sum: "{{ [big * 4, huge] }}"
    - assert:
        that: ["sum[0] == huge", "sum[1] is integer", "huge // big == 4", "sum | to_json == '[36893488147419103228, 36893488147419103228]'"]
    - debug: {var: sum}
    - debug: {msg: x, verbosity: "{{ huge }}"}
      register: verb
      ignore_errors: true
    - assert:
        that: ["verb is failed", "'out of range' in verb.msg"]
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"a", "b"} {
		if s := recap.Stats[h]; s.Failed != 0 || s.Ignored != 1 {
			t.Errorf("%s: %+v\n%s", h, *s, out)
		}
	}
	want, _ := new(big.Int).SetString("36893488147419103228", 10)
	if n, ok := recap.Custom["_run"]["n"].(*big.Int); !ok || n.Cmp(want) != 0 {
		t.Errorf("set_stats n = %#v, want 4 × (2**63 - 1) exactly", recap.Custom["_run"]["n"])
	}
	if !strings.Contains(out, "36893488147419103228,") || strings.Contains(out, `"36893488147419103228"`) {
		t.Errorf("debug var must show the integers as JSON numbers:\n%s", out)
	}
}
