package main

import (
	"fmt"
	"math/rand"
	"strings"
)

// typ is the type an expression is built to have, so that most generated
// expressions evaluate rather than fail (failing ones are compared too).
type typ int

const (
	tInt typ = iota
	tStr
	tBool
	tLI // list of ints
	tLS // list of strings
	tDict
	nTypes
)

func (t typ) String() string {
	return [...]string{"int", "str", "bool", "list-int", "list-str", "dict"}[t]
}

// variable is a name the generator knows of, with its type. A variable
// that is not sure may be undefined on some host (set by a task that was
// skipped or failed there), so expressions read it through default.
type variable struct {
	name string
	t    typ
	sure bool
}

// exprGen builds Jinja expressions of a given type from the known
// variables, literals, filters, tests and operators.
type exprGen struct {
	r    *rand.Rand
	vars []variable
}

var words = []string{"a", "b", "abc", "x1", "", "1.2.3", "10", "A b", "yes", "off", "B-c", "0x1f", "12", "2.0"}

var versions = []string{"1.2.3", "1.10", "2.0", "1.2", "0.9.9", "10.0.1"}

func (g *exprGen) pick(xs []string) string { return xs[g.r.Intn(len(xs))] }

func (g *exprGen) chance(n int) bool { return g.r.Intn(100) < n }

func quote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}

// literal is a Jinja literal of type t.
func (g *exprGen) literal(t typ) string {
	switch t {
	case tInt:
		return fmt.Sprint(g.r.Intn(24) - 4)
	case tStr:
		return quote(g.pick(words))
	case tBool:
		return g.pick([]string{"true", "false", "True", "False"})
	case tLI, tLS:
		n := g.r.Intn(5)
		el := make([]string, n)
		for i := range el {
			if t == tLI {
				el[i] = g.literal(tInt)
			} else {
				el[i] = g.literal(tStr)
			}
		}
		return "[" + strings.Join(el, ", ") + "]"
	case tDict:
		n := g.r.Intn(4)
		el := make([]string, n)
		for i := range el {
			v := g.literal(tInt)
			if g.chance(50) {
				v = g.literal(tStr)
			}
			el[i] = fmt.Sprintf("'%s': %s", g.pick([]string{"k", "a", "b", "z", "key"}), v)
		}
		return "{" + strings.Join(el, ", ") + "}"
	}
	panic("type")
}

// variableOf names a known variable of type t, through default when it
// may be undefined; "" when there is none.
func (g *exprGen) variableOf(t typ) string {
	var c []variable
	for _, v := range g.vars {
		if v.t == t {
			c = append(c, v)
		}
	}
	if len(c) == 0 {
		return ""
	}
	v := c[g.r.Intn(len(c))]
	if v.sure {
		return v.name
	}
	return fmt.Sprintf("(%s | default(%s))", v.name, g.literal(t))
}

// Expr is an expression of type t, at most depth operators deep.
func (g *exprGen) Expr(t typ, depth int) string {
	if depth <= 0 || g.chance(25) {
		if v := g.variableOf(t); v != "" && g.chance(70) {
			return v
		}
		return g.literal(t)
	}
	d := depth - 1
	e := func(t typ) string { return g.Expr(t, d) }
	var alts []func() string
	switch t {
	case tInt:
		alts = []func() string{
			func() string { return fmt.Sprintf("(%s | length)", e(tStr)) },
			func() string { return fmt.Sprintf("(%s | length)", e(tLI)) },
			func() string { return fmt.Sprintf("(%s | count)", e(tDict)) },
			func() string { return fmt.Sprintf("(%s %s %s)", e(tInt), g.pick([]string{"+", "-", "*"}), e(tInt)) },
			func() string {
				return fmt.Sprintf("(%s %s (%s | abs + 1))", e(tInt), g.pick([]string{"//", "%"}), e(tInt))
			},
			func() string { return fmt.Sprintf("(%s | int)", e(tStr)) },
			func() string { return fmt.Sprintf("(%s | int(%d))", e(tStr), g.r.Intn(9)) },
			func() string { return fmt.Sprintf("(%s | int(base=16))", e(tStr)) },
			func() string {
				return fmt.Sprintf("(%s | %s)", e(tLI), g.pick([]string{"first", "last", "max", "min", "sum"}))
			},
			func() string { return fmt.Sprintf("(%s | sum(start=%d))", e(tLI), g.r.Intn(5)) },
			func() string { return fmt.Sprintf("(%s | int)", e(tBool)) },
			func() string { return fmt.Sprintf("(%s | abs)", e(tInt)) },
			func() string { return fmt.Sprintf("([%s, %s] | max)", e(tInt), e(tInt)) },
			func() string { return fmt.Sprintf("(%s | string | length)", e(tInt)) },
			func() string { return fmt.Sprintf("(%s | float | round | int)", e(tStr)) },
			func() string { return fmt.Sprintf("(%s.count(%s))", e(tStr), e(tStr)) },
			func() string { return fmt.Sprintf("(%s | default(%s))", "undefined_int", e(tInt)) },
			func() string { return fmt.Sprintf("(%s if %s else %s)", e(tInt), e(tBool), e(tInt)) },
		}
	case tStr:
		alts = []func() string{
			func() string {
				return fmt.Sprintf("(%s | %s)", e(tStr), g.pick([]string{"upper", "lower", "capitalize", "title", "trim", "reverse", "quote", "b64encode", "string"}))
			},
			func() string { return fmt.Sprintf("(%s | replace(%s, %s))", e(tStr), g.literal(tStr), g.literal(tStr)) },
			func() string {
				return fmt.Sprintf("(%s | regex_replace(%s, %s))", e(tStr), quote(g.pick([]string{"[ab]", "^(.)", "[0-9]+", "(?i)A", "$", "\\.", "b*"})), quote(g.pick([]string{"X", "\\1\\1", "", "-\\g<0>-"})))
			},
			func() string {
				return fmt.Sprintf("(%s | join(%s))", e(tLS), quote(g.pick([]string{",", "", " ", "-"})))
			},
			func() string { return fmt.Sprintf("(%s | join)", e(tLI)) },
			func() string { return fmt.Sprintf("(%s | string)", e(tInt)) },
			func() string { return fmt.Sprintf("(%s ~ %s)", e(tStr), e(tInt)) },
			func() string { return fmt.Sprintf("(%s | to_json)", e(g.pickType(tLI, tLS, tDict, tStr, tBool))) },
			func() string { return fmt.Sprintf("(%s | to_json(sort_keys=true))", e(tDict)) },
			func() string { return fmt.Sprintf("(%s | first)", e(tLS)) },
			func() string { return fmt.Sprintf("(%s[1:])", e(tStr)) },
			func() string { return fmt.Sprintf("(%s * 2)", e(tStr)) },
			func() string { return fmt.Sprintf("('%%s-%%d' | format(%s, %s))", e(tStr), e(tInt)) },
			func() string { return fmt.Sprintf("(%s | center(%d))", e(tStr), g.r.Intn(8)) },
			func() string {
				return fmt.Sprintf("(%s | regex_search(%s))", e(tStr), quote(g.pick([]string{"[0-9]+", "b", "^a", "x"})))
			},
			func() string { return fmt.Sprintf("(%s | default(%s, true))", e(tStr), e(tStr)) },
			func() string { return fmt.Sprintf("(%s.upper())", e(tStr)) },
			func() string { return fmt.Sprintf("(%s | string)", e(tBool)) },
			func() string { return fmt.Sprintf("(%s | string)", e(tLI)) },
			func() string { return fmt.Sprintf("(%s | hash('sha1'))", e(tStr)) },
			func() string { return fmt.Sprintf("(%s | basename)", e(tStr)) },
			func() string { return fmt.Sprintf("(%s | dictsort | first | join('='))", e(tDict)) },
			func() string { return fmt.Sprintf("(%s | splitext | first)", e(tStr)) },
			func() string { return fmt.Sprintf("(%s | ternary(%s, %s))", e(tBool), e(tStr), e(tStr)) },
		}
	case tBool:
		alts = []func() string{
			func() string { return fmt.Sprintf("(%s is defined)", g.pick(g.names())) },
			func() string { return fmt.Sprintf("(%s is undefined)", g.pick(g.names())) },
			func() string {
				return fmt.Sprintf("(%s is %s(%s))", e(tStr), g.pick([]string{"match", "search", "regex"}), quote(g.pick([]string{"a", "^[0-9]", "b$", ".", "A"})))
			},
			func() string { return fmt.Sprintf("(%s in %s)", e(tInt), e(tLI)) },
			func() string { return fmt.Sprintf("(%s in %s)", e(tStr), e(tStr)) },
			func() string { return fmt.Sprintf("(%s not in %s)", e(tStr), e(tLS)) },
			func() string {
				return fmt.Sprintf("(%s %s %s)", e(tInt), g.pick([]string{">", "<", "==", "!=", ">=", "<="}), e(tInt))
			},
			func() string {
				return fmt.Sprintf("(%s %s %s)", e(tStr), g.pick([]string{">", "<", "==", "!="}), e(tStr))
			},
			func() string { return fmt.Sprintf("(%s | bool)", e(tStr)) },
			func() string { return fmt.Sprintf("(not %s)", e(tBool)) },
			func() string { return fmt.Sprintf("(%s %s %s)", e(tBool), g.pick([]string{"and", "or"}), e(tBool)) },
			func() string {
				return fmt.Sprintf("(%s is version(%s, %s))", quote(g.pick(versions)), quote(g.pick(versions)), quote(g.pick([]string{">=", "<", "==", "gt", "le", "!="})))
			},
			func() string {
				return fmt.Sprintf("(%s is %s)", e(tInt), g.pick([]string{"even", "odd", "divisibleby(3)", "number", "string"}))
			},
			func() string { return fmt.Sprintf("(%s is subset(%s))", e(tLI), e(tLI)) },
			func() string {
				return fmt.Sprintf("(%s is %s)", e(g.pickType(tLS, tDict, tStr)), g.pick([]string{"sequence", "mapping", "string", "iterable"}))
			},
			func() string { return fmt.Sprintf("(%s.startswith(%s))", e(tStr), e(tStr)) },
			func() string { return fmt.Sprintf("(%s)", e(g.pickType(tLI, tStr, tInt, tDict))) },
		}
	case tLI:
		alts = []func() string{
			func() string {
				return fmt.Sprintf("(%s | select(%s, %s) | list)", e(tLI), quote(g.pick([]string{">", "<", "==", "equalto", "!="})), e(tInt))
			},
			func() string {
				return fmt.Sprintf("(%s | reject(%s) | list)", e(tLI), quote(g.pick([]string{"odd", "even"})))
			},
			func() string {
				return fmt.Sprintf("(%s | %s)", e(tLI), g.pick([]string{"unique", "sort", "reverse | list", "sort(reverse=true)"}))
			},
			func() string { return fmt.Sprintf("(%s + %s)", e(tLI), e(tLI)) },
			func() string {
				return fmt.Sprintf("(%s | %s(%s))", e(tLI), g.pick([]string{"difference", "union", "intersect", "symmetric_difference"}), e(tLI))
			},
			func() string { return fmt.Sprintf("(range(%s %% 5) | list)", e(tInt)) },
			func() string { return fmt.Sprintf("(%s | map('int') | list)", e(tLS)) },
			func() string { return fmt.Sprintf("(%s | map('length') | list)", e(tLS)) },
			func() string { return fmt.Sprintf("([%s, %s] | flatten)", e(tLI), e(tLI)) },
			func() string { return fmt.Sprintf("(%s[1:])", e(tLI)) },
			func() string {
				return fmt.Sprintf("(%s | dict2items | map(attribute='value') | select('number') | list)", e(tDict))
			},
			func() string { return fmt.Sprintf("(%s | map('abs') | list)", e(tLI)) },
		}
	case tLS:
		alts = []func() string{
			func() string {
				return fmt.Sprintf("(%s | map(%s) | list)", e(tLS), quote(g.pick([]string{"upper", "lower", "trim", "string"})))
			},
			func() string { return fmt.Sprintf("(%s | map('string') | list)", e(tLI)) },
			func() string {
				return fmt.Sprintf("(%s | select(%s, %s) | list)", e(tLS), quote(g.pick([]string{"match", "search", "equalto"})), quote(g.pick([]string{"a", "b", "1", "^x"})))
			},
			func() string { return fmt.Sprintf("(%s | reject | list)", e(tLS)) },
			func() string {
				return fmt.Sprintf("(%s | %s)", e(tLS), g.pick([]string{"unique", "sort", "reverse | list", "sort(reverse=true)"}))
			},
			func() string { return fmt.Sprintf("(%s | dict2items | map(attribute='key') | list)", e(tDict)) },
			func() string { return fmt.Sprintf("(%s | list)", e(tDict)) },
			func() string {
				return fmt.Sprintf("(%s.split(%s))", e(tStr), quote(g.pick([]string{"b", ",", ".", " "})))
			},
			func() string { return fmt.Sprintf("(%s | list)", e(tStr)) },
			func() string { return fmt.Sprintf("(%s | product(%s) | map('join', '-') | list)", e(tLS), e(tLS)) },
			func() string { return fmt.Sprintf("(%s | zip(%s) | map('join', ':') | list)", e(tLS), e(tLS)) },
			func() string { return fmt.Sprintf("(%s | map('regex_replace', '^', %s) | list)", e(tLS), e(tStr)) },
			func() string { return fmt.Sprintf("(%s | batch(2) | map('join') | list)", e(tLS)) },
			func() string { return fmt.Sprintf("(%s | split(%s))", e(tStr), quote(g.pick([]string{"b", ","}))) },
		}
	case tDict:
		alts = []func() string{
			func() string { return fmt.Sprintf("(%s | combine(%s))", e(tDict), e(tDict)) },
			func() string { return fmt.Sprintf("(%s | combine(%s, recursive=true))", e(tDict), e(tDict)) },
			func() string { return fmt.Sprintf("(%s | dict2items | items2dict)", e(tDict)) },
			func() string { return fmt.Sprintf("dict(%s | zip(%s))", e(tLS), e(tLI)) },
			func() string {
				return fmt.Sprintf("(%s | dict2items | rejectattr('key', 'equalto', 'a') | items2dict)", e(tDict))
			},
			func() string {
				return fmt.Sprintf("(%s | items2dict(key_name='key', value_name='value'))", "("+e(tDict)+" | dict2items)")
			},
			func() string { return fmt.Sprintf("({%s: %s} | combine(%s))", e(tStr), e(tInt), e(tDict)) },
		}
	}
	return alts[g.r.Intn(len(alts))]()
}

func (g *exprGen) pickType(ts ...typ) typ { return ts[g.r.Intn(len(ts))] }

// names are variable names to test with defined/undefined: known ones
// and some that are never set.
func (g *exprGen) names() []string {
	n := []string{"nosuch", "inventory_hostname", "item", "ansible_check_mode", "hostvars"}
	for _, v := range g.vars {
		n = append(n, v.name)
	}
	return n
}

// Template is "{{ expr }}" for an expression of type t.
func (g *exprGen) Template(t typ, depth int) string {
	return "{{ " + g.Expr(t, depth) + " }}"
}
