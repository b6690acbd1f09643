package expr

import (
	"strings"
)

// looseVersion splits a version string the way Python's
// distutils.version.LooseVersion does: runs of digits become ints, runs of
// lowercase letters and runs of anything else become strings
// ("2.6.32-754.el6" → 2 6 32 "-" 754 "el" 6), "." is only a separator.
func looseVersion(s string) []any {
	var parts []any
	i := 0
	for i < len(s) {
		c := s[i]
		j := i + 1
		switch {
		case isDigit(c):
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			n, err := parseInt(s[i:j], 10)
			if err != nil { // more digits than Python's int() reads
				parts = append(parts, s[i:j])
			} else {
				parts = append(parts, n)
			}
		case c >= 'a' && c <= 'z':
			for j < len(s) && s[j] >= 'a' && s[j] <= 'z' {
				j++
			}
			parts = append(parts, s[i:j])
		case c == '.':
		default: // a run of anything else ("-", "RC", "_") is one component
			for j < len(s) && !isDigit(s[j]) && s[j] != '.' && !(s[j] >= 'a' && s[j] <= 'z') {
				j++
			}
			parts = append(parts, s[i:j])
		}
		i = j
	}
	return parts
}

// compareLoose orders two version strings as LooseVersion does: component
// by component, ints numerically, strings lexically; a longer version with
// an equal prefix is greater. Comparing an int with a string is a TypeError
// in Python 3, and so it is here.
func compareLoose(a, b string) (int, error) {
	pa, pb := looseVersion(a), looseVersion(b)
	for i := 0; i < len(pa) && i < len(pb); i++ {
		x, y := pa[i], pb[i]
		if Equal(x, y) {
			continue
		}
		xInt, yInt := isInt(x), isInt(y)
		if xInt != yInt {
			return 0, errorf("Version comparison failed: '<' not supported between instances of '%s' and '%s'", typeName(x), typeName(y))
		}
		if xInt {
			return compareNumbers(x, y), nil
		}
		return strings.Compare(x.(string), y.(string)), nil
	}
	return cmpOrdered(len(pa), len(pb)), nil
}

// versionTest implements Ansible's `version` test and `version_compare`
// filter: version(value, other, operator='eq', strict=False).
func versionTest(value, other any, op any, strict bool) (bool, error) {
	a, b := Str(value), Str(other)
	if value == nil || a == "" {
		return false, errorf("Version comparison failed: version value cannot be empty")
	}
	o := "eq"
	if op != nil {
		o = Str(op)
	}
	if strict {
		if !strictVersion(a) {
			return false, errorf("Version comparison failed: invalid version number '%s'", a)
		}
		if !strictVersion(b) {
			return false, errorf("Version comparison failed: invalid version number '%s'", b)
		}
	}
	c, err := compareLoose(a, b)
	if err != nil {
		return false, err
	}
	switch o {
	case "==", "=", "eq":
		return c == 0, nil
	case "!=", "<>", "ne":
		return c != 0, nil
	case "<", "lt":
		return c < 0, nil
	case "<=", "le":
		return c <= 0, nil
	case ">", "gt":
		return c > 0, nil
	case ">=", "ge":
		return c >= 0, nil
	}
	return false, errorf("Invalid operator type (%s)", o)
}

// strictVersion accepts what StrictVersion does: N.N[.N][(a|b)N].
func strictVersion(s string) bool {
	i, groups := 0, 0
	for {
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i {
			return false
		}
		groups++
		i = j
		if i < len(s) && s[i] == '.' && groups < 3 {
			i++
			continue
		}
		break
	}
	if groups < 2 {
		return false
	}
	if i < len(s) && (s[i] == 'a' || s[i] == 'b') {
		i++
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}
