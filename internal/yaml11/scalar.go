package yaml11

import (
	"math"
	"regexp"
	"strconv"
	"strings"

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
// YAML 1.1 does: nil, bool, int, float64, or the string itself.
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
		return Scalar(n.Value), nil
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
			return float64(v), nil
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
	case "!vault":
		return nil, errAt(n, "vault-encrypted values are not supported")
	}
	return nil, errAt(n, "unknown YAML tag %s", n.Tag)
}

func parseInt(text string) (int, bool) {
	s := strings.ReplaceAll(text, "_", "")
	sign := 1
	if s != "" && (s[0] == '-' || s[0] == '+') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	var v int64
	var err error
	switch {
	case s == "":
		return 0, false
	case strings.HasPrefix(s, "0b"):
		v, err = strconv.ParseInt(s[2:], 2, 64)
	case strings.HasPrefix(s, "0x"):
		v, err = strconv.ParseInt(s[2:], 16, 64)
	case strings.Contains(s, ":"):
		v, err = sexagesimal(s)
	case len(s) > 1 && s[0] == '0':
		v, err = strconv.ParseInt(s[1:], 8, 64)
	default:
		v, err = strconv.ParseInt(s, 10, 64)
	}
	if err != nil {
		return 0, false
	}
	return sign * int(v), true
}

func sexagesimal(s string) (int64, error) {
	var v int64
	for _, part := range strings.Split(s, ":") {
		d, err := strconv.ParseInt(part, 10, 64)
		if err != nil {
			return 0, err
		}
		v = v*60 + d
	}
	return v, nil
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
