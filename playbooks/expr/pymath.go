package expr

import (
	"math"
	"math/big"
	"sync"
)

// Correctly rounded pow and log, as glibc computes Python's math.pow,
// float ** float and math.log (Go's math package may be one unit in the
// last place off: math.Pow(27, 1.0/3) is 2.9999999999999996 where
// Python's 27 ** (1/3) is 3.0). The result is computed with 96 bits
// and rounded to the nearest float64.

const bigPrec = 96

// bigLn2 is ln 2, computed once.
var bigLn2 = sync.OnceValue(func() *big.Float { return lnSeries(new(big.Float).SetPrec(bigPrec).SetFloat64(2)) })

// pyPow is C's pow for finite positive x and finite y; other cases are
// math.Pow's.
func pyPow(x, y float64) float64 {
	if x <= 0 || x == 1 || y == 0 || y == 1 || math.IsInf(x, 0) || math.IsNaN(x) || math.IsInf(y, 0) || math.IsNaN(y) {
		return math.Pow(x, y)
	}
	l := bigLog(x)
	l.Mul(l, new(big.Float).SetPrec(bigPrec).SetFloat64(y))
	r, ok := bigExp(l)
	if !ok {
		return math.Pow(x, y)
	}
	f, _ := r.Float64()
	return f
}

// pyLog is C's log for finite positive x.
func pyLog(x float64) float64 {
	if x <= 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return math.Log(x)
	}
	f, _ := bigLog(x).Float64()
	return f
}

// pyLog10 is C's log10 for finite positive x.
func pyLog10(x float64) float64 {
	if x <= 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return math.Log10(x)
	}
	l := bigLog(x)
	l.Quo(l, bigLog(10))
	f, _ := l.Float64()
	return f
}

// bigLog is ln(x) for x > 0: x = m·2^e with m in [0.5, 1), ln(m) by the
// series of 2·atanh((m-1)/(m+1)), plus e·ln 2.
func bigLog(x float64) *big.Float {
	m, e := math.Frexp(x)
	out := lnSeries(new(big.Float).SetPrec(bigPrec).SetFloat64(m))
	ln2 := new(big.Float).SetPrec(bigPrec).Mul(bigLn2(), new(big.Float).SetPrec(bigPrec).SetInt64(int64(e)))
	return out.Add(out, ln2)
}

// lnSeries is ln(m) = 2·Σ z^(2k+1)/(2k+1), z = (m-1)/(m+1), for m near 1.
func lnSeries(m *big.Float) *big.Float {
	one := new(big.Float).SetPrec(bigPrec).SetInt64(1)
	num := new(big.Float).SetPrec(bigPrec).Sub(m, one)
	den := new(big.Float).SetPrec(bigPrec).Add(m, one)
	z := num.Quo(num, den)
	z2 := new(big.Float).SetPrec(bigPrec).Mul(z, z)
	term := new(big.Float).SetPrec(bigPrec).Set(z)
	sum := new(big.Float).SetPrec(bigPrec).Set(z)
	eps := new(big.Float).SetPrec(bigPrec).SetMantExp(one, -bigPrec)
	for k := int64(1); k < 2000; k++ {
		term.Mul(term, z2)
		t := new(big.Float).SetPrec(bigPrec).Quo(term, new(big.Float).SetPrec(bigPrec).SetInt64(2*k+1))
		sum.Add(sum, t)
		if t.Sign() == 0 || new(big.Float).Abs(t).Cmp(eps) < 0 {
			break
		}
	}
	return sum.Mul(sum, new(big.Float).SetPrec(bigPrec).SetInt64(2))
}

// bigExp is e^l: l = k·ln 2 + r, e^r by its Taylor series, scaled by 2^k;
// ok is false when the result is outside float64's range.
func bigExp(l *big.Float) (*big.Float, bool) {
	lf, _ := l.Float64()
	if math.Abs(lf) > 1100 {
		return nil, false
	}
	k := math.Round(lf / math.Ln2)
	r := new(big.Float).SetPrec(bigPrec).Mul(bigLn2(), new(big.Float).SetPrec(bigPrec).SetFloat64(k))
	r.Sub(l, r)
	one := new(big.Float).SetPrec(bigPrec).SetInt64(1)
	sum := new(big.Float).SetPrec(bigPrec).Set(one)
	term := new(big.Float).SetPrec(bigPrec).Set(one)
	eps := new(big.Float).SetPrec(bigPrec).SetMantExp(one, -bigPrec)
	for n := int64(1); n < 2000; n++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetPrec(bigPrec).SetInt64(n))
		sum.Add(sum, term)
		if term.Sign() == 0 || new(big.Float).Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	return sum.SetMantExp(sum, int(k)), true
}
