package expr

import (
	"math"
	"math/big"
	"strings"
)

// maxSize bounds strings built by repetition, formatting and templates;
// maxItems bounds lists built by repetition, range() and sequence.
const (
	maxSize  = 1 << 24
	maxItems = 1 << 20
)

func unary(op string, x any) (any, error) {
	switch v := x.(type) {
	case *timeDelta:
		if op == "-" {
			return &timeDelta{-v.us}, nil
		}
		return v, nil
	case bool, int, *big.Int:
		if op == "-" {
			return negInt(v)
		}
		if b, ok := v.(bool); ok {
			return intArith("+", 0, b)
		}
		return v, nil
	case float64:
		if op == "-" {
			return -v, nil
		}
		return v, nil
	}
	return nil, typeErrorf("bad operand type for unary %s: '%s'", op, typeName(x))
}

func unsupported(op string, l, r any) error {
	return typeErrorf("unsupported operand type(s) for %s: '%s' and '%s'", op, typeName(l), typeName(r))
}

// binary implements + - * / // % ** ~ with Python's rules.
func binary(op string, l, r any) (any, error) {
	if op == "~" {
		ls, rs := Str(l), Str(r)
		if len(ls)+len(rs) > maxSize {
			return nil, errorf("string too large")
		}
		return ls + rs, nil
	}
	if v, ok, err := dateArith(op, l, r); ok {
		return v, err
	}
	if v, ok, err := markupArith(op, l, r); ok {
		return v, err
	}
	if isNumber(l) && isNumber(r) {
		if integral(l) && integral(r) {
			return intArith(op, l, r)
		}
		return floatArith(op, l, r)
	}
	li, lInt := integer(l)
	ri, rInt := integer(r)
	switch op {
	case "+":
		if ls, ok := text(l); ok {
			if rs, ok := text(r); ok {
				if len(ls)+len(rs) > maxSize {
					return nil, errorf("string too large")
				}
				return ls + rs, nil
			}
			return nil, typeErrorf("can only concatenate str (not \"%s\") to str", typeName(r))
		}
		if ll, ok := l.([]any); ok {
			if rl, ok := r.([]any); ok {
				if len(ll)+len(rl) > maxItems {
					return nil, errorf("list too large")
				}
				out := make([]any, 0, len(ll)+len(rl))
				return append(append(out, ll...), rl...), nil
			}
			return nil, typeErrorf("can only concatenate list (not \"%s\") to list", typeName(r))
		}
	case "*":
		if lInt {
			l, r, ri, rInt = r, l, li, true
		}
		if _, isBig := l.(*big.Int); isBig {
			l, r = r, l
		}
		if _, isBig := r.(*big.Int); isBig {
			if _, ok := text(l); ok {
				return nil, errorf("cannot fit 'int' into an index-sized integer")
			}
			if _, ok := l.([]any); ok {
				return nil, errorf("cannot fit 'int' into an index-sized integer")
			}
		}
		if rInt {
			if ls, ok := text(l); ok {
				if ri <= 0 {
					return "", nil
				}
				if len(ls)*ri > maxSize || ri > maxSize {
					return nil, errorf("repeated string too large")
				}
				return strings.Repeat(ls, ri), nil
			}
			if ll, ok := l.([]any); ok {
				if ri <= 0 {
					return []any{}, nil
				}
				if len(ll)*ri > maxItems || ri > maxItems {
					return nil, errorf("repeated list too large")
				}
				out := make([]any, 0, len(ll)*ri)
				for range ri {
					out = append(out, ll...)
				}
				return out, nil
			}
		}
		// Python's sequence repeat: the other side must be an int.
		if isSequence(l) {
			return nil, typeErrorf("can't multiply sequence by non-int of type '%s'", typeName(r))
		}
		if isSequence(r) {
			return nil, typeErrorf("can't multiply sequence by non-int of type '%s'", typeName(l))
		}
	case "%":
		if ls, ok := text(l); ok {
			return percentFormat(ls, r)
		}
	}
	return nil, unsupported(op, l, r)
}

// isSequence reports whether x is a str or a list, which * repeats.
func isSequence(x any) bool {
	if _, ok := text(x); ok {
		return true
	}
	_, ok := x.([]any)
	return ok
}

func floatOp(op string, a, b float64) (any, error) {
	switch op {
	case "+":
		return a + b, nil
	case "-":
		return a - b, nil
	case "*":
		return a * b, nil
	case "/":
		if b == 0 {
			return nil, zeroDivision("float division by zero")
		}
		return a / b, nil
	case "//":
		if b == 0 {
			return nil, zeroDivision("float floor division by zero")
		}
		return math.Floor(a / b), nil
	case "%":
		if b == 0 {
			return nil, zeroDivision("float modulo")
		}
		m := math.Mod(a, b)
		if m != 0 && (m < 0) != (b < 0) {
			m += b
		}
		return m, nil
	case "**":
		if a == 0 && b < 0 {
			return nil, errorf("0.0 cannot be raised to a negative power")
		}
		return pyPow(a, b), nil
	}
	return nil, errorf("unknown operator %s", op)
}
