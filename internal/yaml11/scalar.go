package yaml11

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// The YAML 1.1 implicit types, as PyYAML (and so Ansible) resolves plain
// scalars. Note what they leave out on purpose: `1e5` (no dot, unsigned
// exponent) and `0o755` are strings, `08` is a string, `y`/`n` are strings.
var (
	reBool  = regexp.MustCompile(`^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`)
	reNull  = regexp.MustCompile(`^(?:~|null|Null|NULL|)$`)
	reInt   = regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)
	reFloat = regexp.MustCompile(`^(?:[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
)

// Scalar resolves the text of one plain (unquoted, untagged) scalar the way
// YAML 1.1 does: nil, bool, int, *big.Int (an integer too large for an
// int, never one that fits), float64, or the string itself (also for an
// integer past MaxIntDigits digits).
func Scalar(text string) any {
	switch {
	case reNull.MatchString(text):
		return nil
	case reBool.MatchString(text):
		switch text[0] {
		case 'y', 'Y', 't', 'T':
			return true
		case 'o', 'O':
			return text[1] == 'n' || text[1] == 'N'
		}
		return false
	case reInt.MatchString(text):
		if v, ok := parseInt(text); ok {
			return v
		}
	case reFloat.MatchString(text):
		if v, ok := parseFloat(text); ok {
			return v
		}
	}
	return text
}

func scalarNode(n *yaml.Node) (any, error) {
	explicit := n.Style&yaml.TaggedStyle != 0
	if !explicit {
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			return n.Value, nil
		}
		v := Scalar(n.Value)
		if s, ok := v.(string); ok && reInt.MatchString(s) {
			return nil, errAt(n, "integer %.20s... exceeds the limit (%d digits) for integer string conversion", s, MaxIntDigits)
		}
		return v, nil
	}
	switch n.Tag {
	case "!unsafe":
		return Unsafe(n.Value), nil
	case "!!str", "!":
		return n.Value, nil
	case "!!int":
		if v, ok := parseInt(n.Value); ok {
			return v, nil
		}
		return nil, errAt(n, "%q is not an integer", n.Value)
	case "!!float":
		if v, ok := parseFloat(n.Value); ok {
			return v, nil
		}
		if v, ok := parseInt(n.Value); ok {
			if b, isBig := v.(*big.Int); isBig {
				f, _ := new(big.Float).SetInt(b).Float64()
				return f, nil
			}
			return float64(v.(int)), nil
		}
		return nil, errAt(n, "%q is not a float", n.Value)
	case "!!bool":
		if v, ok := Scalar(n.Value).(bool); ok {
			return v, nil
		}
		return nil, errAt(n, "%q is not a boolean", n.Value)
	case "!!null":
		return nil, nil
	case "!!binary", "!!timestamp":
		return n.Value, nil
	}
	return nil, errAt(n, "unknown YAML tag %s", n.Tag)
}

// MaxIntDigits is the most decimal digits an integer may have: Python
// 3.11's limit for converting an integer to or from text
// (sys.get_int_max_str_digits()), which tender applies to every integer
// it holds, so that each is one Python could print and no input costs
// more than a few thousand digits of arithmetic.
const MaxIntDigits = 4300

// intLimit is 10**MaxIntDigits, the least magnitude past the limit.
var intLimit = sync.OnceValue(func() *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(MaxIntDigits), nil)
})

// IntValue returns the integer b as tender's values hold Python's ints:
// an int when it fits one, else b itself (a *big.Int, which is then never
// a number an int could hold); ok is false past MaxIntDigits digits.
func IntValue(b *big.Int) (v any, ok bool) {
	if b.IsInt64() && int64(int(b.Int64())) == b.Int64() {
		return int(b.Int64()), true
	}
	if b.CmpAbs(intLimit()) >= 0 {
		return nil, false
	}
	return b, true
}

// parseInt reads a YAML 1.1 integer (its text matched reInt) as PyYAML
// does: an int, or a *big.Int when it does not fit one; ok is false past
// the limit.
func parseInt(text string) (any, bool) {
	s := strings.ReplaceAll(text, "_", "")
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	base := 10
	switch {
	case s == "":
		return 0, false
	case strings.HasPrefix(s, "0b"):
		s, base = s[2:], 2
	case strings.HasPrefix(s, "0x"):
		s, base = s[2:], 16
	case strings.Contains(s, ":"):
		base = 60
	case len(s) > 1 && s[0] == '0':
		s, base = s[1:], 8
	}
	// every digit (base 2 and up) or ":" adds at least one bit
	if base == 10 && len(s) > MaxIntDigits || len(strings.TrimLeft(s, "0")) > 4*MaxIntDigits {
		return 0, false
	}
	v := new(big.Int)
	if base == 60 {
		for _, part := range strings.Split(s, ":") {
			d, err := strconv.ParseInt(part, 10, 64)
			if err != nil {
				return 0, false
			}
			v.Add(v.Mul(v, big.NewInt(60)), big.NewInt(d))
		}
	} else if _, ok := v.SetString(s, base); !ok {
		return 0, false
	}
	if neg {
		v.Neg(v)
	}
	return IntValue(v)
}

func parseFloat(text string) (float64, bool) {
	s := strings.ToLower(strings.ReplaceAll(text, "_", ""))
	sign := 1.0
	if s != "" && (s[0] == '-' || s[0] == '+') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	switch {
	case s == ".inf":
		return sign * math.Inf(1), true
	case s == ".nan":
		return math.NaN(), true
	case strings.Contains(s, ":"):
		parts := strings.Split(s, ":")
		var v float64
		for i, p := range parts {
			d, err := strconv.ParseFloat(p, 64)
			if err != nil || (i < len(parts)-1 && strings.Contains(p, ".")) {
				return 0, false
			}
			v = v*60 + d
		}
		return sign * v, true
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	return sign * v, true
}
