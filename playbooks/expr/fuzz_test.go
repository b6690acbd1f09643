package expr

import (
	"testing"
)

func fuzzScope() *Vars {
	return &Vars{Layers: []map[string]any{{
		"n": 5, "s": "hello", "l": []any{3, 1, "x"}, "d": map[string]any{"a": 1, "b": []any{1.5}},
		"lazy": "{{ n + 1 }}", "loop1": "{{ loop2 }}", "loop2": "{{ loop1 }}", "none": nil,
	}}, Env: &Env{SearchPaths: []string{"testdata"}, BaseDir: "testdata", NoWrite: true}}
}

var fuzzSeeds = []string{
	"1 + 2 * 3", "n is defined and s | upper == 'HELLO'", "'12' >= '7'", "l | sort", "d.a if n > 3 else d.b[0]",
	"x | default(1)", "lazy", "loop1", "[1, 2][1:]", "{'a': [1, {'b': none}]}", "s is version('1.0', '>')",
	"lookup('items', l)", "l | map('string') | join(',')", "range(3) | list", "'%s' % n", "2 ** 62 * 4",
	"q('sequence', 'count=3')", "s[::-1]", "not not n", "d.items() | list", "'a' ~ none ~ true",
	"l | select('match', 'x') | list", "s.split('l', 1)", "lookup('vars', 's') ~ lookup('vars', 'lazy')",
	"d | dictsort | map('first') | list", "'a\\nb' | indent(2, true)", "'%5.2f|%-6d' % (1.5, 2)", "d | combine({'c': 1}, recursive=true) | to_yaml",
	"lookup('list', wantlist=true, *l)", "dict(b=2, **d)", "q('nested', l, [1], 'ab')", "q('together', l, s)",
	"q('subelements', [d], 'b', {'skip_missing': 1})", "'http://u:p@[::1]:80/x?q#f' | urlsplit('port')",
	"n\u00a0+\u30001", "lookup('ini', 'a section=b re=1', file='app.ini')", "q('first_found', [{'files': 'x,y', 'paths': 'a:b'}])",
	"now().strftime('%Y %-d %^a') ~ ('2024-01-02' | to_datetime('%Y-%m-%d') - now()).days", "'[1, {\"a\": null}]' | string",
	"l | groupby(0) | map(attribute='grouper') | list", "'a-b c' | wordwrap(2) | urlize | striptags | pprint",
	"namespace(a=1).a ~ cycler(1, 2).next() ~ lipsum(1, false, 2, 3)", "l | product(l) | zip_longest(l) | batch(2) | slice(3)",
	"'1K' | human_to_bytes | human_readable ~ (2 | pow(0.5)) ~ (8 | log(2)) ~ ('<b>' | e + '<i>')",
	"query('indexed_items', l) + query('varnames', '^l') + query('inventory_hostnames', 'all:!x')",
	"lookup('csvfile', 'a file=app.ini delimiter==')", "'x' | comment('cblock') | to_uuid",
	"2 ** 64 // -7 % 3 - 10 ** 20 * -1 + 0x10000000000000000", "('9' * 30) | int * -(2 ** 63) ~ (2 ** 70) | to_json",
	"'%x|%d|%.2e' % (2 ** 70, -(2 ** 64), 10 ** 30) ~ [2 ** 64, 1.5] | sum ~ (2 ** 64 == 2.0 ** 64) ~ (2 ** 64) | random",
}

// FuzzParse: parsing and evaluating any expression never panics.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	scope := fuzzScope()
	f.Fuzz(func(t *testing.T, src string) {
		e, err := Parse(src)
		if err != nil {
			return
		}
		if v, err := e.Eval(scope); err == nil {
			checkInts(t, src, v)
		}
	})
}

// FuzzTemplate: parsing and rendering any template never panics.
func FuzzTemplate(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add("{{ " + s + " }}")
	}
	for _, s := range []string{
		"a {{ n }} b", "{% if n %}x{% elif s %}y{% else %}z{% endif %}", "{% for k, v in d.items() if v %}{{ loop.index }}{{ k }}{% else %}e{% endfor %}",
		"{%- set x = 1 -%} {{- x -}}", "{# c #}\n{% raw %}{{ x }}{% endraw %}", "{{ '}}' }}", "{{ {'a': {'b': 1}} }}",
		"{% include 'templates/incl_leaf.j2' ignore missing without context %}", "{% for item in l %}{% include ['x', 'templates/incl_item.j2'] %}{% endfor %}",
		"{{ lookup('template', 'incl_main.j2') }}", "{{\u00a0n\u00a0}}\u2003{%- if n -%}\u3000{% endif %}",
		"{% macro m(a, b=2) %}{{ a }}{{ caller(b) }}{{ varargs }}{% endmacro %}{% call(x) m(1, 3) %}[{{ x }}]{% endcall %}",
		"{% set ns = namespace(n=0) %}{% for i in l recursive %}{% set ns.n = ns.n + 1 %}{{ loop.cycle(1, 2) }}{% endfor %}{{ ns.n }}",
		"{% set a, b = [1, 2] %}{% set s | upper %}x{{ a }}{% endset %}{% filter trim %} {{ s }} {% endfilter %}",
		"{% with x = 1 %}{% print x, n %}{% endwith %}{% from 'templates/macros.j2' import greet %}{{ greet(1) }}",
		"{% import 'templates/macros.j2' as m with context %}{{ m.greet('x') }}{{ '' }}{\"a\": [1, (2,)]}",
	} {
		f.Add(s)
	}
	scope := fuzzScope()
	f.Fuzz(func(t *testing.T, src string) {
		tm, err := ParseTemplate(src)
		if err != nil {
			return
		}
		_, _ = tm.Render(scope)
	})
}
