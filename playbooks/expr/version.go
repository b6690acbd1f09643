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
			return 0, typeErrorf("'<' not supported between instances of '%s' and '%s'", typeName(x), typeName(y))
		}
		if xInt {
			return compareNumbers(x, y), nil
		}
		return strings.Compare(x.(string), y.(string)), nil
	}
	return cmpOrdered(len(pa), len(pb)), nil
}

// versionTest is Ansible's version test (version_compare): value and
// version compared with operator (eq by default) as the version type
// says, LooseVersion unless strict or version_type name another, each
// refusal in Ansible's words and order.
func versionTest(value any, args []any, kwargs map[string]any) (bool, error) {
	version := argOr(args, kwargs, 0, "version", nil)
	op := argOr(args, kwargs, 1, "operator", "eq")
	strict := argOr(args, kwargs, 2, "strict", nil)
	vt := argOr(args, kwargs, 3, "version_type", nil)
	if strict != nil && vt != nil {
		return false, errorf("Cannot specify both 'strict' and 'version_type'")
	}
	if !Truthy(value) {
		return false, errorf("Input version value cannot be empty")
	}
	if !Truthy(version) {
		return false, errorf("Version parameter to compare against cannot be empty")
	}
	compare := compareLoose
	switch {
	case Truthy(strict):
		compare = compareStrict
	case Truthy(vt):
		name, _ := text(vt)
		c, ok := versionTypes[name]
		if !ok {
			return false, errorf("Invalid version type (%s). Must be one of 'loose', 'strict', 'semver', 'semantic', 'pep440'", Str(vt))
		}
		compare = c
	}
	o, _ := text(op)
	want, ok := versionOperators[o]
	if !ok {
		return false, errorf("Invalid operator type (%s). Must be one of '==', '=', 'eq', '<', 'lt', '<=', 'le', '>', 'gt', '>=', 'ge', '!=', '<>', 'ne'", Str(op))
	}
	c, err := compare(Str(value), Str(version))
	if err != nil {
		return false, errorf("Version comparison failed: %s", err)
	}
	return want(c), nil
}

// versionTypes are the version test's version_type values.
var versionTypes = map[string]func(a, b string) (int, error){
	"loose": compareLoose, "strict": compareStrict, "semver": compareSemver, "semantic": compareSemver, "pep440": comparePEP440,
}

// versionOperators are the version test's operators, by each name.
var versionOperators = map[string]func(c int) bool{
	"==": func(c int) bool { return c == 0 }, "=": func(c int) bool { return c == 0 }, "eq": func(c int) bool { return c == 0 },
	"!=": func(c int) bool { return c != 0 }, "<>": func(c int) bool { return c != 0 }, "ne": func(c int) bool { return c != 0 },
	"<": func(c int) bool { return c < 0 }, "lt": func(c int) bool { return c < 0 },
	"<=": func(c int) bool { return c <= 0 }, "le": func(c int) bool { return c <= 0 },
	">": func(c int) bool { return c > 0 }, "gt": func(c int) bool { return c > 0 },
	">=": func(c int) bool { return c >= 0 }, "ge": func(c int) bool { return c >= 0 },
}
