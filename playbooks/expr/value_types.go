package expr

import (
	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/yaml11"
)

// Values that live only inside an evaluation. Every entry point (Render,
// RenderDeep, Expr.Eval, RunLookup, Vars.Lookup) returns plain values:
// plain turns these into strings.

// nativeText is a string Ansible's converting concat leaves alone
// (NativeJinjaText): the result of a string-type filter (string, to_json,
// to_nice_json, to_yaml, to_nice_yaml, named without a collection), or of
// the template lookup with convert_data=False. Anywhere else it is a
// string; only its being the whole output of a template matters.
type nativeText string

// nativeUnsafe is a nativeText that is also unsafe (Ansible's
// NativeJinjaUnsafeText): what a lookup gives as nativeText.
type nativeUnsafe string

// markup is Jinja's Markup: text marked safe for HTML, made by the escape
// (e), forceescape and safe filters. Joined with other text by ~, + or %
// it escapes that text.
type markup string

// plain returns v with tender's internal values turned into the values
// every tender package shares; it copies only what changes.
func plain(v any) any {
	out, _ := plainChanged(v, 0)
	return out
}

func plainChanged(v any, depth int) (any, bool) {
	switch t := v.(type) {
	case nil, bool, int, float64, string, omitValue:
		return v, false
	case nativeText:
		return string(t), true
	case nativeUnsafe:
		return yaml11.Unsafe(t), true
	case markup:
		return string(t), true
	case []any, map[string]any:
		return elementsChanged(t, depth, plainChanged)
	case *groupTuple:
		out, _ := plainChanged(t.list(), depth+1)
		return out, true
	case *dateTime, *timeDelta, *loopInfo, *macro, *namespace, *cycler, *joiner, *tmplModule, *globalRef:
		return Str(v), true
	}
	return v, false
}

// elementsChanged applies f, a change of one value that copies only what
// it changes, to the elements of the list or the values of the dict v,
// copying v only when one of them changes.
func elementsChanged(v any, depth int, f func(any, int) (any, bool)) (any, bool) {
	return yaml11.EachChanged(v, depth, maxNesting, f)
}

// nativeScope is a Scope that can return the values an evaluation keeps
// internally (nativeText), for lazily rendered variables whose output is
// a string-type filter's, as Ansible keeps NativeJinjaText there. b is
// the budget of the evaluation that reads the variable, which the
// rendering of its value shares (nil: a budget of its own).
type nativeScope interface {
	lookupNative(name string, b *budget) (any, bool, error)
}

// lookupIn looks name up in s for an evaluation with budget b, keeping
// internal values where s can.
func lookupIn(s Scope, name string, b *budget) (any, bool, error) {
	if n, ok := s.(nativeScope); ok {
		return n.lookupNative(name, b)
	}
	return s.Lookup(name)
}

// rawScope is a Scope that can return a variable's value before it is
// templated, for Ansible's single-variable shortcut.
type rawScope interface {
	rawLookup(name string) (any, bool)
}

// markupRepr is Python's repr of a Markup string.
func markupRepr(s string) string { return "Markup(" + pyfmt.Quote(s) + ")" }
