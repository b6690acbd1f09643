package expr

import (
	"math/big"
	"regexp"
	"strings"
)

// The version types of Ansible's version test besides LooseVersion:
// distutils' StrictVersion, Ansible's SemanticVersion and PEP 440's
// (packaging.version.Version). Each compare gives -1, 0 or 1, or the
// ValueError of a string its type does not parse.

var strictVersionRE = regexp.MustCompile(`^(\d+)\.(\d+)(?:\.(\d+))?(?:([ab])(\d+))?$`)

// compareStrict orders a and b as StrictVersion: major, minor, patch (0
// when absent), then a release above its pre-releases (a1 < b1 < none).
func compareStrict(a, b string) (int, error) { return compareBy(a, b, strictKey) }

func strictKey(s string) ([]any, error) {
	m := strictVersionRE.FindStringSubmatch(s)
	if m == nil {
		return nil, errorf("invalid version number '%s'", s)
	}
	k := []any{bigInt(m[1]), bigInt(m[2]), bigInt(m[3])}
	if m[4] == "" {
		return append(k, infinity{}), nil // after "a" and "b"
	}
	return append(k, []any{m[4], bigInt(m[5])}), nil
}

// compareBy orders a and b by the keys key gives them.
func compareBy(a, b string, key func(string) ([]any, error)) (int, error) {
	ka, err := key(a)
	if err != nil {
		return 0, err
	}
	kb, err := key(b)
	if err != nil {
		return 0, err
	}
	return compareKeys(ka, kb), nil
}

var semverRE = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
	`(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?` +
	`(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

// compareSemver orders a and b as Ansible's SemanticVersion: the core
// version, then a release above its pre-releases, whose identifiers
// compare numbers below words; build metadata does not count.
func compareSemver(a, b string) (int, error) { return compareBy(a, b, semverKey) }

func semverKey(s string) ([]any, error) {
	m := semverRE.FindStringSubmatch(s)
	if m == nil {
		return nil, errorf("invalid semantic version '%s'", s)
	}
	k := []any{bigInt(m[1]), bigInt(m[2]), bigInt(m[3])}
	if m[4] == "" {
		return append(k, infinity{}), nil
	}
	var pre []any
	for _, p := range strings.Split(m[4], ".") {
		if isAllDigits(p) {
			pre = append(pre, []any{0, bigInt(p)}) // a number comes first
		} else {
			pre = append(pre, []any{1, p})
		}
	}
	return append(k, pre), nil
}

var pep440RE = regexp.MustCompile(`(?i)^\s*v?(?:(?:([0-9]+)!)?([0-9]+(?:\.[0-9]+)*)` +
	`([-_.]?(alpha|a|beta|b|preview|pre|c|rc)[-_.]?([0-9]+)?)?` +
	`((?:-([0-9]+))|(?:[-_.]?(post|rev|r)[-_.]?([0-9]+)?))?` +
	`([-_.]?(dev)[-_.]?([0-9]+)?)?)` +
	`(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?\s*$`)

var localSepRE = regexp.MustCompile(`[-_.]`)

// Bounds of a PEP 440 key part, as packaging's Infinity and
// NegativeInfinity: above and below every other value.
type (
	infinity    struct{}
	negInfinity struct{}
)

// comparePEP440 orders a and b as packaging.version.Version: epoch,
// release without its trailing zeros, pre-release (a dev release of no
// pre or post release before them all), post-release, dev release, local
// version.
func comparePEP440(a, b string) (int, error) { return compareBy(a, b, pep440Key) }

func pep440Key(s string) ([]any, error) {
	m := pep440RE.FindStringSubmatch(s)
	if m == nil {
		return nil, errorf("Invalid version: '%s'", s)
	}
	num := func(d string) any {
		if d == "" {
			return big.NewInt(0)
		}
		return bigInt(d)
	}
	release := []any{}
	for _, p := range strings.Split(m[2], ".") {
		release = append(release, bigInt(p))
	}
	for len(release) > 0 && release[len(release)-1].(*big.Int).Sign() == 0 {
		release = release[:len(release)-1]
	}
	var pre, post, dev, local any = infinity{}, negInfinity{}, infinity{}, negInfinity{}
	if m[3] != "" {
		l := strings.ToLower(m[4])
		switch l {
		case "alpha":
			l = "a"
		case "beta":
			l = "b"
		case "c", "pre", "preview":
			l = "rc"
		}
		pre = []any{l, num(m[5])}
	}
	if m[6] != "" {
		post = []any{"post", num(m[7] + m[9])}
	}
	if m[10] != "" {
		dev = []any{"dev", num(m[12])}
	}
	if m[3] == "" && m[6] == "" && m[10] != "" {
		pre = negInfinity{}
	}
	if m[13] != "" {
		var parts []any
		for _, p := range localSepRE.Split(strings.ToLower(m[13]), -1) {
			if isAllDigits(p) {
				parts = append(parts, []any{bigInt(p), ""})
			} else {
				parts = append(parts, []any{negInfinity{}, p})
			}
		}
		local = parts
	}
	return []any{num(m[1]), release, pre, post, dev, local}, nil
}

// compareKeys orders two keys as Python's tuples: element by element
// (nested lists as tuples), a shorter prefix first; the infinities above
// and below all else.
func compareKeys(a, b []any) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := compareKeyPart(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmpOrdered(len(a), len(b))
}

func compareKeyPart(x, y any) int {
	switch {
	case x == infinity{} && y == infinity{}, x == negInfinity{} && y == negInfinity{}:
		return 0
	case x == infinity{} || y == negInfinity{}:
		return 1
	case y == infinity{} || x == negInfinity{}:
		return -1
	}
	switch xv := x.(type) {
	case []any:
		return compareKeys(xv, y.([]any))
	case string:
		return strings.Compare(xv, y.(string))
	}
	return compareNumbers(x, y)
}

// bigInt is the decimal digits d (empty for 0) as a number.
func bigInt(d string) *big.Int {
	n, _ := new(big.Int).SetString("0"+d, 10)
	return n
}

func isAllDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}
