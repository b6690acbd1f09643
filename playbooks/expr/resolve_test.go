package expr

import (
	"strings"
	"testing"
)

// TestResolutionCases: a variable whose value fails fails every template
// that names it in its top frame, taken branch or not, in Jinja's order,
// and Jinja's odd, even and divisibleby tests are Python's %, refusing
// the calls Python does not bind (testdata/resolve/cases.yaml, answers
// recorded from ansible-core in testdata/resolve/cases.json).
func TestResolutionCases(t *testing.T) {
	checkCases(t, "testdata/resolve/cases.yaml", "testdata/resolve/cases.json")
}

// TestTemplateNamesInJinjaOrder: the names a template resolves up front
// are those Jinja 3.1.2's compiled root resolves, in its order (read from
// `Environment().compile(src, raw=True)`).
func TestTemplateNamesInJinjaOrder(t *testing.T) {
	for src, want := range map[string]string{
		"{{ a if c else b }}":                                                   "c a b",
		"{{ x | default(y, w) }}":                                               "x y w",
		"{% set q = r %}{{ q }}{{ s }}":                                         "r s",
		"{{ n }}{% set n = 2 %}{{ n }}":                                         "n",
		"{% for i in it %}{{ body }}{% endfor %}{{ after }}":                    "it after",
		"{% for i in it if fc %}{% endfor %}":                                   "it",
		"{{ d[k1:k2] }}{{ {kk: vv} }}":                                          "d k1 k2 kk vv",
		"{% with w1 = wv %}{{ wb }}{% endwith %}":                               "wv",
		"{{ f(p1, *st, k=kv, **ds) }}":                                          "f p1 kv st ds",
		"{{ a < b < c }}{{ -u }}{{ l1 ~ l2 }}":                                  "a b c u l1 l2",
		"{% filter default(fb) %}{{ fx }}{% endfilter %}":                       "fb",
		"{% set sb %}{{ sbv }}{% endset %}":                                     "",
		"{% macro m(x=mdef) %}{{ mb }}{% endmacro %}{{ m() }}":                  "",
		"{% set ns.a = nv %}":                                                   "nv ns",
		"{% call cm(ca) %}{{ cb }}{% endcall %}":                                "cm ca",
		"{% include inc %}":                                                     "inc",
		"{% set x = 1 %}{% if c %}{% set x = 2 %}{% endif %}{{ x }}":            "c",
		"{% if c1 %}{{ b1 }}{% elif c2 %}{{ b2 }}{% else %}{{ b3 }}{% endif %}": "c1 b1 c2 b2 b3",
		"{% if c %}{% set z1 = 1 %}{% set a1 = 1 %}{% else %}{% set b0 = 1 %}{% set z1 = 2 %}{% endif %}": "c z1 a1 b0",
		"{% if c %}{% for z in y %}{% set inner = 1 %}{% endfor %}{% endif %}":                            "c y",
	} {
		tp, err := ParseTemplate(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		var got []string
		for _, n := range tp.names {
			got = append(got, n.name)
		}
		if g := strings.Join(got, " "); g != want {
			t.Errorf("%s: resolves %q, Jinja %q", src, g, want)
		}
	}
}
