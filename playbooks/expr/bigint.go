package expr

import (
	crand "crypto/rand"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/yaml11"
)

// Integers are Python's: exact at any size. A value that fits in Go's int
// is an int; a larger one is a *big.Int, never one that would fit, so the
// two never hold the same number (every result goes through bigResult).
//
// To bound the work of hostile input, an integer may have at most
// maxIntDigits decimal digits (yaml11.MaxIntDigits): Python 3.11's limit
// for converting an integer to or from text, so every integer tender
// holds is one Python could print, and a number Python could not print
// (`2**100000000`) fails at once instead of costing minutes and
// gigabytes. Python itself computes such numbers and fails only when
// printing them (see DIFFERENCES.md).

// maxIntDigits is the most decimal digits an integer may have.
const maxIntDigits = yaml11.MaxIntDigits

// maxIntBits bounds the bits of an integer within the limit (4 bits a
// decimal digit, generously): more is surely past it.
const maxIntBits = 4 * maxIntDigits

// errTooLarge is the error of an integer past the limit.
var errTooLarge = errorf("integer too large: it exceeds the limit (%d digits) for integer string conversion, which tender applies to every integer", maxIntDigits)

// bigResult returns b as tender's integer value: an int when it fits, b
// itself otherwise, an error past the limit. b must not be shared.
func bigResult(b *big.Int) (any, error) {
	if v, ok := yaml11.IntValue(b); ok {
		return v, nil
	}
	return nil, errTooLarge
}

// bigOf returns an integral value (bool, int, *big.Int) as a *big.Int,
// which the caller must not modify.
func bigOf(v any) (*big.Int, bool) {
	switch x := v.(type) {
	case bool:
		if x {
			return big.NewInt(1), true
		}
		return new(big.Int), true
	case int:
		return big.NewInt(int64(x)), true
	case *big.Int:
		return x, true
	}
	return nil, false
}

// isInt reports whether v is a Python int (not a bool).
func isInt(v any) bool {
	switch v.(type) {
	case int, *big.Int:
		return true
	}
	return false
}

// integral reports whether v is a bool, int or *big.Int.
func integral(v any) bool {
	_, ok := v.(bool)
	return ok || isInt(v)
}

// floatOf is Python's float(v) for a bool, int, *big.Int or float,
// refusing an integer too large for a float as Python does.
func floatOf(v any) (float64, error) {
	if b, ok := v.(*big.Int); ok {
		f, _ := new(big.Float).SetInt(b).Float64()
		if math.IsInf(f, 0) {
			return 0, errorf("int too large to convert to float")
		}
		return f, nil
	}
	f, _ := number(v)
	return f, nil
}

// floatArith is op on two numbers as floats, Python's mixed arithmetic:
// an integer too large for a float fails.
func floatArith(op string, l, r any) (any, error) {
	lf, err := floatOf(l)
	if err != nil {
		return nil, err
	}
	rf, err := floatOf(r)
	if err != nil {
		return nil, err
	}
	return floatOp(op, lf, rf)
}

// intOfFloat is Python's int(f): f truncated toward zero, exactly.
func intOfFloat(f float64) (any, error) {
	switch {
	case math.IsNaN(f):
		return nil, errorf("cannot convert float NaN to integer")
	case math.IsInf(f, 0):
		return nil, errorf("cannot convert float infinity to integer")
	case f > -(1<<63) && f < 1<<63:
		return int(f), nil
	}
	b, _ := big.NewFloat(f).Int(nil)
	return bigResult(b)
}

// intArith is + - * / // % ** on two integral values.
func intArith(op string, l, r any) (any, error) {
	if a, ok := integer(l); ok {
		if b, ok := integer(r); ok {
			if v, ok, err := smallIntOp(op, a, b); ok {
				return v, err
			}
		}
	}
	x, _ := bigOf(l)
	y, _ := bigOf(r)
	return bigIntOp(op, x, y)
}

// smallIntOp computes op on two ints; ok is false when the result does
// not fit in an int.
func smallIntOp(op string, a, b int) (v any, ok bool, err error) {
	switch op {
	case "+":
		s := a + b
		return s, (s > a) == (b > 0), nil
	case "-":
		s := a - b
		return s, (s < a) == (b > 0), nil
	case "*":
		if a == 0 || b == 0 {
			return 0, true, nil
		}
		hi, lo := bits.Mul64(absU(a), absU(b))
		neg := (a < 0) != (b < 0)
		if hi != 0 || lo > math.MaxInt && !(neg && lo == -math.MinInt) {
			return nil, false, nil
		}
		return a * b, true, nil
	case "/":
		if b == 0 {
			return nil, true, zeroDivision("division by zero")
		}
		if absU(a) > 1<<53 || absU(b) > 1<<53 {
			return nil, false, nil // not exact as floats: divide exactly
		}
		return float64(a) / float64(b), true, nil
	case "//", "%":
		if b == 0 {
			return nil, true, intZeroDivision(op)
		}
		if b == -1 {
			if op == "%" {
				return 0, true, nil
			}
			return -a, a != math.MinInt, nil
		}
		q, m := a/b, a%b
		if m != 0 && (m < 0) != (b < 0) {
			q, m = q-1, m+b
		}
		if op == "//" {
			return q, true, nil
		}
		return m, true, nil
	case "**":
		if b < 0 {
			if a == 0 {
				return nil, true, errorf("0.0 cannot be raised to a negative power")
			}
			return pyPow(float64(a), float64(b)), true, nil
		}
		r := 1
		for base, e := a, b; ; {
			if e&1 == 1 {
				v, ok, _ := smallIntOp("*", r, base)
				if !ok {
					return nil, false, nil
				}
				r = v.(int)
			}
			if e >>= 1; e == 0 {
				return r, true, nil
			}
			v, ok, _ := smallIntOp("*", base, base)
			if !ok {
				return nil, false, nil
			}
			base = v.(int)
		}
	}
	return nil, true, errorf("unknown operator %s", op)
}

func absU(a int) uint64 {
	if a < 0 {
		return uint64(-(a + 1)) + 1
	}
	return uint64(a)
}

// bigIntOp computes op on two integers of any size.
func bigIntOp(op string, x, y *big.Int) (any, error) {
	z := new(big.Int)
	switch op {
	case "+":
		return bigResult(z.Add(x, y))
	case "-":
		return bigResult(z.Sub(x, y))
	case "*":
		return bigResult(z.Mul(x, y))
	case "/":
		if y.Sign() == 0 {
			return nil, zeroDivision("division by zero")
		}
		f, _ := new(big.Rat).SetFrac(x, y).Float64()
		if math.IsInf(f, 0) {
			return nil, errorf("integer division result too large for a float")
		}
		return f, nil
	case "//", "%":
		if y.Sign() == 0 {
			return nil, intZeroDivision(op)
		}
		m := new(big.Int)
		z.QuoRem(x, y, m)
		if m.Sign() != 0 && m.Sign() != y.Sign() {
			z.Sub(z, big.NewInt(1))
			m.Add(m, y)
		}
		if op == "//" {
			return bigResult(z)
		}
		return bigResult(m)
	case "**":
		return bigPow(x, y)
	}
	return nil, errorf("unknown operator %s", op)
}

// bigPow is x ** y: an exact integer for y >= 0, refused before any work
// when the result would be past the limit; a float for y < 0.
func bigPow(x, y *big.Int) (any, error) {
	if y.Sign() < 0 {
		return floatArith("**", x, y)
	}
	switch {
	case y.Sign() == 0:
		return 1, nil
	case x.Sign() == 0 || x.Cmp(big.NewInt(1)) == 0:
		return bigResult(new(big.Int).Set(x))
	case x.Cmp(big.NewInt(-1)) == 0:
		if y.Bit(0) == 0 {
			return 1, nil
		}
		return -1, nil
	}
	// |x| >= 2**(bits-1), so |x ** y| >= 2**((bits-1)*y)
	if !y.IsInt64() || y.Int64() > int64(maxIntBits) || int64(x.BitLen()-1)*y.Int64() > int64(maxIntBits) {
		return nil, errTooLarge
	}
	return bigResult(new(big.Int).Exp(x, y, nil))
}

// negInt is -v for an integral value.
func negInt(v any) (any, error) {
	if n, ok := integer(v); ok && n != math.MinInt {
		return -n, nil
	}
	b, _ := bigOf(v)
	return bigResult(new(big.Int).Neg(b))
}

// absInt is abs(v) for an integral value.
func absInt(v any) (any, error) {
	if n, ok := integer(v); ok && n >= 0 {
		return n, nil
	}
	b, _ := bigOf(v)
	if b.Sign() >= 0 {
		return v, nil
	}
	return negInt(v)
}

// unordered is compareNumbers' answer when a NaN is involved: every
// ordering comparison is false.
const unordered = 2

// compareNumbers orders two numbers (bool, int, *big.Int, float) exactly,
// as Python does: an integer and a float are compared without rounding.
func compareNumbers(a, b any) int {
	if x, ok := integer(a); ok {
		if y, ok := integer(b); ok {
			return cmpOrdered(x, y)
		}
	}
	fa, aFloat := a.(float64)
	fb, bFloat := b.(float64)
	switch {
	case aFloat && bFloat:
		if math.IsNaN(fa) || math.IsNaN(fb) {
			return unordered
		}
		return cmpOrdered(fa, fb)
	case aFloat:
		c := compareNumbers(b, a)
		if c == unordered {
			return c
		}
		return -c
	case bFloat:
		if math.IsNaN(fb) {
			return unordered
		}
		if math.IsInf(fb, 0) {
			return cmpOrdered(0, fb)
		}
		x, _ := bigOf(a)
		if x.IsInt64() && absU(int(x.Int64())) <= 1<<53 {
			return cmpOrdered(float64(x.Int64()), fb)
		}
		return new(big.Float).SetInt(x).Cmp(big.NewFloat(fb))
	}
	x, _ := bigOf(a)
	y, _ := bigOf(b)
	return x.Cmp(y)
}

// parseInt reads the digits of an integer in base (no sign, prefix or
// underscores; the caller has checked them) as Python's int() does,
// with its limit of maxIntDigits digits in a base that is not a power
// of two, and tender's limit on the result in any base.
func parseInt(digits string, base int) (any, error) {
	if base < 2 || base > 36 {
		return nil, errorf("int() base must be >= 2 and <= 36, or 0")
	}
	for i := 0; i < len(digits); i++ {
		c, d := digits[i]|0x20, 36
		switch {
		case digits[i] >= '0' && digits[i] <= '9':
			d = int(digits[i] - '0')
		case c >= 'a' && c <= 'z':
			d = int(c-'a') + 10
		}
		if d >= base {
			return nil, errorf("invalid literal for int() with base %d: %s", base, pyfmt.Quote(digits))
		}
	}
	if digits == "" {
		return nil, errorf("invalid literal for int() with base %d: ''", base)
	}
	if n, err := strconv.ParseInt(digits, base, 0); err == nil {
		return int(n), nil
	}
	if base&(base-1) != 0 {
		if len(digits) > maxIntDigits {
			return nil, errorf("Exceeds the limit (%d digits) for integer string conversion: value has %d digits; use sys.set_int_max_str_digits() to increase the limit", maxIntDigits, len(digits))
		}
	} else if sig := strings.TrimLeft(digits, "0"); (len(sig)-1)*bits.Len(uint(base-1)) > maxIntBits {
		return nil, errTooLarge
	}
	b, _ := new(big.Int).SetString(digits, base)
	return bigResult(b)
}

// roundInt is Python's round(x, ndigits) for an integral x: x itself
// (as an int) for ndigits >= 0, else x rounded half to even to a
// multiple of 10**-ndigits.
func roundInt(x any, ndigits int) (any, error) {
	if ndigits >= 0 {
		return intArith("+", 0, x)
	}
	if ndigits < -(maxIntDigits + 1) {
		return 0, nil // |x| < 10**maxIntDigits: less than half of 10**-ndigits
	}
	b, _ := bigOf(x)
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-ndigits)), nil)
	q, r := new(big.Int).DivMod(b, p, new(big.Int)) // r >= 0: floor division
	switch c := new(big.Int).Lsh(r, 1).Cmp(p); {
	case c > 0, c == 0 && q.Bit(0) == 1:
		q.Add(q, big.NewInt(1))
	}
	return bigResult(q.Mul(q, p))
}

// jsonNumber is a JSON number as Python's json module reads it: an
// integer of any size (within the limit) or a float.
func jsonNumber(s string) (any, error) {
	if !strings.ContainsAny(s, ".eE") {
		if digits, neg := strings.CutPrefix(s, "-"); neg {
			n, err := parseInt(digits, 10)
			if err != nil {
				return nil, err
			}
			return negInt(n)
		}
		return parseInt(s, 10)
	}
	f, _ := strconv.ParseFloat(s, 64)
	return f, nil
}

// numberSign is -1, 0 or 1 as an integral value is negative, zero or
// positive.
func numberSign(v any) int {
	b, _ := bigOf(v)
	return b.Sign()
}

// nonPositive reports whether a number (bool, int, *big.Int, float) is
// <= 0 (NaN is not).
func nonPositive(v any) bool {
	if b, ok := v.(*big.Int); ok {
		return b.Sign() <= 0
	}
	f, _ := number(v)
	return f <= 0
}

// logOf is log (pyLog or pyLog10) of a positive number, as Python's math
// module takes it: an integer too large for a float is split into a
// float mantissa and a power of two.
func logOf(v any, log func(float64) float64) float64 {
	b, ok := v.(*big.Int)
	if !ok {
		f, _ := number(v)
		return log(f)
	}
	if f, err := floatOf(b); err == nil {
		return log(f)
	}
	e := b.BitLen()
	m, _ := new(big.Float).SetMantExp(new(big.Float).SetInt(b), -e).Float64()
	return log(m) + log(2)*float64(e)
}

// Arith applies an operator of expressions (+ - * / // % ** ~) to two
// values as a template does: integers exact at any size (an int, or a
// *big.Int past 64 bits), numbers, strings and lists by Python's rules.
func Arith(op string, a, b any) (any, error) { return binary(op, a, b) }

// FromJSON turns the json.Numbers in v (decoded with UseNumber) into the
// numbers Python's json module reads, in place: an integer is an int, or
// a *big.Int past 64 bits; more than 4300 digits are an error, as in
// Python.
func FromJSON(v any) (any, error) { return fromJSON(v) }

// randRange is Python's random.randrange(start, stop, step) for integers
// of any size, as Ansible's random filter calls it (a step of 0 is 1).
func randRange(start, stop, step, seed any) (any, error) {
	if !integral(start) || !integral(step) {
		return nil, errorf("non-integer arg for randrange()")
	}
	if !Truthy(step) {
		step = 1
	}
	width, err := intArith("-", stop, start)
	if err != nil {
		return nil, err
	}
	adj := -1
	if numberSign(step) > 0 {
		adj = 1
	}
	n, err := intArith("-", width, adj)
	if err == nil {
		n, err = intArith("+", n, step)
	}
	if err == nil {
		n, err = intArith("//", n, step)
	}
	if err != nil {
		return nil, err
	}
	if numberSign(n) <= 0 {
		return nil, errorf("empty range for randrange()")
	}
	nb, _ := bigOf(n)
	r, err := intArith("*", step, randBelow(nb, seed))
	if err != nil {
		return nil, err
	}
	return intArith("+", start, r)
}

// randBelow is a random integer in [0, n), n > 0.
func randBelow(n *big.Int, seed any) any {
	if n.IsInt64() && int64(int(n.Int64())) == n.Int64() {
		return randInt(int(n.Int64()), seed)
	}
	if seed == nil {
		if v, err := crand.Int(crand.Reader, n); err == nil {
			r, _ := bigResult(v)
			return r
		}
	}
	if g, err := newPyRandom(seed); err == nil {
		r, _ := bigResult(g.below(n))
		return r
	}
	v, _ := crand.Int(crand.Reader, n)
	r, _ := bigResult(v)
	return r
}

// intZeroDivision is Python's error for an integer // or % by zero.
func intZeroDivision(op string) error {
	if op == "%" {
		return zeroDivision("integer modulo by zero")
	}
	return zeroDivision("integer division or modulo by zero")
}
