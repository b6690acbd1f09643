package pyfmt

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Int converts a plain value as Python's int() does, with its error
// messages: an int, a bool, a float (truncated), or a string of decimal
// digits (surrounding whitespace, a sign and single underscores between
// digits allowed). An integer past 64 bits is refused.
func Int(v any) (int, error) {
	switch x := v.(type) {
	case int:
		return x, nil
	case *big.Int:
		return 0, fmt.Errorf("%s is out of range", x)
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return 0, fmt.Errorf("cannot convert float %s to integer", Float(x))
		}
		if x <= -(1<<63) || x >= 1<<63 {
			return 0, fmt.Errorf("%s is out of range", Float(x))
		}
		return int(x), nil
	}
	s, ok := text(v)
	if !ok {
		return 0, fmt.Errorf("int() argument must be a string, a bytes-like object or a real number, not '%s'", TypeName(v))
	}
	clean := strings.TrimFunc(s, IsSpace)
	if !strings.HasPrefix(clean, "_") && !strings.HasSuffix(clean, "_") && !strings.Contains(clean, "__") {
		clean = strings.ReplaceAll(clean, "_", "")
	}
	n, err := strconv.Atoi(clean)
	if err != nil {
		return 0, fmt.Errorf("invalid literal for int() with base 10: %s", Quote(s))
	}
	return n, nil
}
