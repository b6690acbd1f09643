package packages

import (
	"cmp"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// pipReq is one requirement of pip's name parameter, read as Ansible's pip
// reads it (a setuptools Requirement): a project name, optional extras,
// version specifiers and an environment marker. A name that does not parse
// as one (a URL, a path, a VCS address) is kept as written and is never
// found installed in check mode.
type pipReq struct {
	raw    string
	plain  bool        // parsed as a requirement
	key    string      // the canonical project name (PEP 503)
	name   string      // the project name as written
	extras string      // "[a,b]" as written, or ""
	specs  [][2]string // operator, version
	marker string      // after ";", trimmed
}

var (
	pipReqRE  = regexp.MustCompile(`^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(\[[^\]]*\])?\s*([^;]*?)\s*(?:;\s*(.*?))?\s*$`)
	pipSpecRE = regexp.MustCompile(`^\s*(===|~=|==|!=|<=|>=|<|>)\s*([A-Za-z0-9.*+!_-]+)\s*$`)
	pipSepRE  = regexp.MustCompile(`[-_.]+`)
	pipOpRE   = regexp.MustCompile(`^\s*(===|~=|==|!=|<=|>=|<|>)`)
)

// parsePipReq reads one requirement.
func parsePipReq(s string) pipReq {
	r := pipReq{raw: s}
	m := pipReqRE.FindStringSubmatch(s)
	if m == nil {
		return r
	}
	if m[3] != "" {
		for _, part := range strings.Split(m[3], ",") {
			sm := pipSpecRE.FindStringSubmatch(part)
			if sm == nil {
				return r
			}
			r.specs = append(r.specs, [2]string{sm[1], sm[2]})
		}
	}
	r.plain, r.name, r.extras, r.marker = true, m[1], m[2], m[4]
	r.key = strings.ToLower(pipSepRE.ReplaceAllString(m[1], "-"))
	return r
}

// String is the requirement as pip is given it: setuptools' form, extras
// and specifiers sorted, without spaces.
func (r pipReq) String() string {
	if !r.plain {
		return r.raw
	}
	specs := make([]string, len(r.specs))
	for i, s := range r.specs {
		specs[i] = s[0] + s[1]
	}
	sort.Strings(specs)
	s := r.name
	if r.extras != "" {
		var ex []string
		for _, e := range strings.Split(strings.Trim(r.extras, "[]"), ",") {
			if e = strings.TrimSpace(e); e != "" {
				ex = append(ex, e)
			}
		}
		sort.Strings(ex)
		s += "[" + strings.Join(ex, ",") + "]"
	}
	s += strings.Join(specs, ",")
	if r.marker != "" {
		s += "; " + r.marker
	}
	return s
}

// recoverPipNames joins what splitting the name list on commas cut apart
// ("pkg>=1,<2" arrives as "pkg>=1" and "<2"), as Ansible's pip does: a
// piece that starts with a version operator, or lies inside brackets,
// belongs to the name before it.
func recoverPipNames(names []string) []string {
	var pieces []string
	for _, n := range names {
		pieces = append(pieces, strings.Split(n, ",")...)
	}
	var out, cur []string
	inBrackets := false
	for _, p := range pieces {
		if !pipOpRE.MatchString(p) && !inBrackets && len(cur) > 0 {
			out = append(out, strings.Join(cur, ","))
			cur = nil
		}
		if strings.Contains(p, "[") {
			inBrackets = true
		}
		if inBrackets && strings.Contains(p, "]") {
			inBrackets = false
		}
		cur = append(cur, p)
	}
	return append(out, strings.Join(cur, ","))
}

// satisfiedBy reports whether version meets every specifier (pre-releases
// allowed, as Ansible asks).
func (r pipReq) satisfiedBy(version string) bool {
	if !r.plain {
		return false
	}
	for _, s := range r.specs {
		if !pipSpecHolds(s[0], s[1], version) {
			return false
		}
	}
	return true
}

// pipSpecHolds evaluates one PEP 440 specifier against version.
func pipSpecHolds(op, want, have string) bool {
	switch op {
	case "===":
		return strings.EqualFold(want, have)
	case "==", "!=":
		eq := false
		if p, ok := strings.CutSuffix(want, ".*"); ok {
			hr, wr := pipVersion(have).release, pipVersion(p).release
			eq = len(hr) >= len(wr)
			for i := 0; eq && i < len(wr); i++ {
				eq = hr[i] == wr[i]
			}
		} else {
			eq = pipCompare(have, want) == 0
		}
		return eq == (op == "==")
	case "~=":
		w := pipVersion(want).release
		if len(w) < 2 || pipCompare(have, want) < 0 {
			return false
		}
		h := pipVersion(have).release
		for i := 0; i < len(w)-1; i++ {
			if i >= len(h) || h[i] != w[i] {
				return false
			}
		}
		return true
	}
	c := pipCompare(have, want)
	switch op {
	case "<=":
		return c <= 0
	case ">=":
		return c >= 0
	case "<":
		return c < 0
	}
	return c > 0
}

// pipVer is a version reduced to what ordering needs: the release
// numbers, and a pre-release/post-release rank and number.
type pipVer struct {
	release []int
	phase   int // 0 dev, 1 a, 2 b, 3 rc, 4 release, 5 post
	n       int
}

var pipVerRE = regexp.MustCompile(`^v?(\d+(?:\.\d+)*)(?:[-_.]?(a|alpha|b|beta|c|rc|pre|preview|post|rev|r|dev)[-_.]?(\d*))?`)

// pipVersion parses a PEP 440 version (epochs and local parts are
// ignored).
func pipVersion(s string) pipVer {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.Index(s, "!"); i >= 0 {
		s = s[i+1:]
	}
	v := pipVer{phase: 4}
	m := pipVerRE.FindStringSubmatch(s)
	if m == nil {
		return v
	}
	for _, p := range strings.Split(m[1], ".") {
		n, _ := strconv.Atoi(p)
		v.release = append(v.release, n)
	}
	v.n, _ = strconv.Atoi(m[3])
	switch m[2] {
	case "dev":
		v.phase = 0
	case "a", "alpha":
		v.phase = 1
	case "b", "beta":
		v.phase = 2
	case "c", "rc", "pre", "preview":
		v.phase = 3
	case "post", "rev", "r":
		v.phase = 5
	}
	return v
}

// pipCompare orders two versions: -1, 0 or 1.
func pipCompare(a, b string) int {
	x, y := pipVersion(a), pipVersion(b)
	for i := 0; i < max(len(x.release), len(y.release)); i++ {
		var p, q int
		if i < len(x.release) {
			p = x.release[i]
		}
		if i < len(y.release) {
			q = y.release[i]
		}
		if p != q {
			return cmp.Compare(p, q)
		}
	}
	if x.phase != y.phase {
		return cmp.Compare(x.phase, y.phase)
	}
	return cmp.Compare(x.n, y.n)
}
