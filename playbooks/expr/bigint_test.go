package expr

import (
	"math"
	"math/big"
	"runtime"
	"strings"
	"testing"
	"time"
)

// checkInts fails when v holds a *big.Int that fits in an int: the two
// representations never hold the same number.
func checkInts(t *testing.T, src string, v any) {
	t.Helper()
	switch x := v.(type) {
	case *big.Int:
		if x.IsInt64() {
			t.Errorf("%s: %v is a *big.Int, but fits in an int", src, x)
		}
	case []any:
		for _, e := range x {
			checkInts(t, src, e)
		}
	case map[string]any:
		for _, e := range x {
			checkInts(t, src, e)
		}
	}
}

// Results that fit in 64 bits are ints again, whatever produced them.
func TestBigIntDemoted(t *testing.T) {
	for src, want := range map[string]any{
		"(2 ** 64) - (2 ** 64) + 5":                      5,
		"(2 ** 64) // (2 ** 60)":                         16,
		"(2 ** 64) % 7":                                  2,
		"-(2 ** 63)":                                     math.MinInt,
		"-9223372036854775808":                           math.MinInt,
		"9223372036854775807 + 1 - 1":                    math.MaxInt,
		"(-(2 ** 63)) | abs - 1":                         math.MaxInt,
		"('9' * 30) | int // (10 ** 29)":                 9,
		"'[18446744073709551616, 3]' | from_json | last": 3,
		"[2 ** 64, -(2 ** 64), 1] | sum":                 1,
		"(2 ** 64 + 5) | round(-1) - 2 ** 64":            4,
		"1e18 | int":                                     1000000000000000000,
	} {
		e, err := Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		got, err := e.Eval(&Vars{})
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if got != want {
			t.Errorf("%s = %#v (%T), want the int %v", src, got, got, want)
		}
	}
}

// The 64-bit fast path promotes exactly at the edges of int.
func TestSmallIntOpEdges(t *testing.T) {
	ops := []string{"+", "-", "*", "//", "%", "**"}
	vals := []int{0, 1, -1, 2, -2, 3, 63, 64, 3037000499, 3037000500, -3037000500, math.MaxInt, math.MinInt, math.MaxInt - 1, math.MinInt + 1, 1 << 32, -(1 << 32)}
	for _, op := range ops {
		for _, a := range vals {
			for _, b := range vals {
				if op == "**" && (b < 0 || b > 200) || (op == "//" || op == "%") && b == 0 {
					continue
				}
				got, err := intArith(op, a, b)
				if err != nil {
					t.Fatalf("%d %s %d: %v", a, op, b, err)
				}
				want, err := bigIntOp(op, big.NewInt(int64(a)), big.NewInt(int64(b)))
				if err != nil {
					t.Fatalf("%d %s %d (big): %v", a, op, b, err)
				}
				if !Equal(got, want) || typeName(got) != "int" {
					t.Errorf("%d %s %d = %v, exactly %v", a, op, b, got, want)
				}
				checkInts(t, op, got)
			}
		}
	}
}

// An integer and a float compare exactly, as in Python; NaN orders with
// nothing.
func TestCompareNumbers(t *testing.T) {
	big53 := 1<<53 + 1
	huge, _ := new(big.Int).SetString("1"+strings.Repeat("0", 400), 10)
	for _, c := range []struct {
		a, b any
		want int
	}{
		{big53, float64(1 << 53), 1},
		{float64(1 << 53), big53, -1},
		{huge, math.MaxFloat64, 1},
		{huge, math.Inf(1), -1},
		{new(big.Int).Neg(huge), math.Inf(-1), 1},
		{true, 1.0, 0},
		{math.NaN(), 1, unordered},
		{1, math.NaN(), unordered},
		{math.MinInt, -9223372036854775808.0, 0},
	} {
		if got := compareNumbers(c.a, c.b); got != c.want {
			t.Errorf("compare(%v, %v) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// Hostile integers fail at once, in little memory: the limit is checked
// before the work.
func TestBigIntBounded(t *testing.T) {
	scope := &Vars{Layers: []map[string]any{{"hex": "0x" + strings.Repeat("f", 1<<22), "dec": strings.Repeat("9", 1<<22)}}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	for _, src := range []string{
		"2 ** 100000000",
		"10 ** (10 ** 10)",
		"2 ** (2 ** 62)",
		"(2 ** 14000) ** (2 ** 14000)",
		"(3 ** 9000) * (3 ** 9000) * (3 ** 9000)",
		"(-7) ** 100000001",
		"hex | int(base=16)",
		"dec | int",
		"'[' ~ dec ~ ']' | from_json",
		"dec | from_json",
		"9" + strings.Repeat("9", 5000),
		"0x" + strings.Repeat("f", 5000),
		"(2 ** 14000) | round(-20000) + 2 ** 100000",
	} {
		e, err := Parse(src)
		if err == nil {
			_, err = e.Eval(scope)
		}
		if err == nil {
			t.Errorf("%.40s: no error", src)
		}
	}
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if took > 3*time.Second {
		t.Errorf("refusing took %v", took)
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 256<<20 {
		t.Errorf("refusing allocated %d MiB", grown>>20)
	}
}

// The largest integer Python prints has 4300 digits; tender holds it and
// refuses the next.
func TestIntLimit(t *testing.T) {
	nines := strings.Repeat("9", maxIntDigits)
	v, err := parseInt(nines, 10)
	if err != nil || Str(v) != nines {
		t.Fatalf("4300 nines: %v", err)
	}
	if _, err := intArith("+", v, 1); err == nil || !strings.Contains(err.Error(), "4300 digits") {
		t.Errorf("10**4300: err = %v", err)
	}
	if _, err := negInt(v); err != nil {
		t.Errorf("-(10**4300 - 1): %v", err)
	}
	if _, err := parseInt(nines+"9", 10); err == nil {
		t.Errorf("4301 digits parsed")
	}
	if _, err := parseInt("0"+nines, 10); err == nil {
		t.Errorf("4301 digits (a leading zero) parsed: Python counts every digit")
	}
}
