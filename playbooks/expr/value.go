package expr

import (
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/yaml11"
)

// omitValue is the type of Omit.
type omitValue struct{}

// Omit is the value of the magic variable `omit` (and of `x | default(omit)`
// when x is undefined). A caller building module arguments drops every
// argument whose value IsOmit. Inside a larger string it renders as
// "__omit_place_holder__", as Ansible's placeholder does.
var Omit any = omitValue{}

// IsOmit reports whether v is the Omit sentinel.
func IsOmit(v any) bool { _, ok := v.(omitValue); return ok }

const omitText = "__omit_place_holder__"

// undefined is the value of a name, attribute, key or index that does not
// exist. It flows through the evaluator so that `is defined` and `default`
// can see it; any other use turns it into an *UndefinedError.
type undefined struct {
	name string // the variable the chain started from
	msg  string
	// What Ansible's AnsibleUndefined holds, shown by its repr (%r): the
	// hint (a message, or nil), the object an attribute or key was
	// missing from (when hasObj; else Jinja's "missing") and the name of
	// the variable, attribute or key (or nil).
	hint   any
	obj    any
	hasObj bool
	key    any
	// lenient marks Jinja's own undefined (an inline if without else):
	// it prints as nothing, its repr is Undefined.
	lenient bool
}

func (u *undefined) err() error {
	h, _ := u.hint.(string)
	return &UndefinedError{Name: u.name, Msg: u.msg, hint: h}
}

// printed is v as a template prints it and ~ joins it: a lenient
// undefined is the empty string; any other undefined fails.
func (ev *evaluator) printed(n node) (any, error) {
	v, err := ev.eval(n)
	if err != nil {
		return nil, err
	}
	return ev.printedValue(n, v)
}

// printedValue is printed for n's value v, already evaluated.
func (ev *evaluator) printedValue(n node, v any) (any, error) {
	if u, ok := v.(*undefined); ok {
		if u.lenient {
			return "", nil
		}
		return nil, ev.wrap(n, u.err())
	}
	if u := undefinedIn(v, 0); u != nil {
		// a list or dict holding an undefined value (map's missing
		// attributes) fails when printed, as Ansible's output does
		return nil, ev.wrap(n, u.err())
	}
	return v, nil
}

// undefinedIn returns the first undefined value inside the lists and
// dicts of v, or nil.
func undefinedIn(v any, depth int) *undefined {
	if depth > maxDepth {
		return nil
	}
	switch x := v.(type) {
	case *undefined:
		return x
	case []any:
		for _, e := range x {
			if u := undefinedIn(e, depth+1); u != nil {
				return u
			}
		}
	case map[string]any:
		for _, e := range x {
			if u := undefinedIn(e, depth+1); u != nil {
				return u
			}
		}
	}
	return nil
}

// repr is Python's repr of Ansible's undefined value.
func (u *undefined) repr() string {
	if u.lenient {
		return "Undefined"
	}
	obj := "missing"
	if u.hasObj {
		obj = Repr(u.obj)
	}
	return "AnsibleUndefined(hint=" + Repr(u.hint) + ", obj=" + obj + ", name=" + Repr(u.key) + ")"
}

// Truthy reports whether v is true in Python's sense: None, False, 0, 0.0
// and empty strings, lists and dicts are false; everything else is true.
func Truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case int:
		return x != 0
	case *big.Int:
		return x.Sign() != 0
	case float64:
		return x != 0
	case string:
		return x != ""
	case yaml11.Unsafe:
		return x != ""
	case nativeText:
		return x != ""
	case nativeUnsafe:
		return x != ""
	case markup:
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	case *undefined:
		return false
	}
	return true
}

// Keyed is a Scope that can list its names. A Scope stored as a value (for
// example hostvars, or one host's variables inside it) acts as a dict whose
// entries are resolved lazily, in that scope, when accessed; if it is also
// Keyed it can be iterated, measured and serialized. Vars is Keyed.
type Keyed interface {
	Scope
	Keys() []string
}

// materialize turns a Scope value into a map by looking up each of its
// keys; a Scope that cannot list its keys is an error.
func materialize(s Scope) (map[string]any, error) {
	k, ok := s.(Keyed)
	if !ok {
		return nil, errorf("a lazily resolved dict (%T) cannot be listed", s)
	}
	out := map[string]any{}
	for _, name := range k.Keys() {
		v, ok, err := s.Lookup(name)
		if err != nil {
			return nil, err
		}
		if ok {
			out[name] = v
		}
	}
	return out, nil
}

// Str renders v as Python's str() does: True, None, 1.0, ['a', 1], {'a': 1}.
func Str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case yaml11.Unsafe:
		return string(x)
	case nativeText:
		return string(x)
	case nativeUnsafe:
		return string(x)
	case markup:
		return string(x)
	case omitValue:
		return omitText
	case *undefined:
		return ""
	case strer:
		return x.str()
	}
	var b strings.Builder
	writeRepr(&b, v)
	return b.String()
}

// Repr renders v as Python's repr() does: strings are quoted.
func Repr(v any) string {
	var b strings.Builder
	writeRepr(&b, v)
	return b.String()
}

func writeRepr(b *strings.Builder, v any) {
	if b.Len() > maxSize { // pathological input: stop growing
		return
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case int:
		b.WriteString(strconv.Itoa(x))
	case *big.Int:
		b.WriteString(x.String())
	case float64:
		b.WriteString(pyfmt.Float(x))
	case string:
		b.WriteString(pyfmt.Quote(x))
	case yaml11.Unsafe:
		b.WriteString(pyfmt.Quote(string(x)))
	case nativeText:
		b.WriteString(pyfmt.Quote(string(x)))
	case nativeUnsafe:
		b.WriteString(pyfmt.Quote(string(x)))
	case markup:
		b.WriteString(markupRepr(string(x)))
	case strer:
		b.WriteString(x.repr())
	case omitValue:
		b.WriteString(pyfmt.Quote(omitText))
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		b.WriteByte('{')
		for i, k := range pydict.Keys(x) {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pyfmt.Quote(k))
			b.WriteString(": ")
			writeRepr(b, x[k])
		}
		b.WriteByte('}')
	case *undefined:
		b.WriteString(x.repr())
	case Scope:
		if m, err := materialize(x); err == nil {
			writeRepr(b, m)
		} else {
			b.WriteString("{...}")
		}
	default:
		b.WriteString("<unknown>")
	}
}

func leftPad(s string, n int) string {
	for len(s) < n {
		s = "0" + s
	}
	return s
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// typeName is Python's type(v).__name__.
func typeName(v any) string {
	switch x := v.(type) {
	case omitValue:
		return "str"
	case markup:
		return "Markup"
	case strer:
		return x.typeName()
	case *undefined:
		return "AnsibleUndefined"
	case Scope:
		return "dict"
	case nativeText:
		return "NativeJinjaText"
	case nativeUnsafe:
		return "NativeJinjaUnsafeText"
	case yaml11.Unsafe:
		return "AnsibleUnsafeText"
	}
	return pyfmt.TypeName(v)
}

// objName is Jinja's name of a value in "'X object' has no attribute" errors.
func objName(v any) string {
	switch v.(type) {
	case nil:
		return "None"
	case []any:
		return "list object"
	case map[string]any:
		return "dict object"
	}
	return typeName(v) + " object"
}

// Number returns v as a float64 when Python would take it for a number:
// a bool, an int (one past 64 bits rounded) or a float.
func Number(v any) (float64, bool) { return number(v) }

// number returns v as a float64 if it is a bool, int or float (an integer
// too large for a float is an infinity: see floatOf).
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case *big.Int:
		f, _ := new(big.Float).SetInt(x).Float64()
		return f, true
	case float64:
		return x, true
	}
	i, ok := integer(v)
	return float64(i), ok
}

// integer returns v as an int if it is a bool or an int (not a *big.Int,
// which is too large for one).
func integer(v any) (int, bool) {
	switch x := v.(type) {
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case int:
		return x, true
	}
	return 0, false
}

// isNumber reports whether v is a bool, int or float.
func isNumber(v any) bool {
	switch v.(type) {
	case bool, int, *big.Int, float64:
		return true
	}
	return false
}

// text returns v as a string if it is one (plain or unsafe).
func text(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case yaml11.Unsafe:
		return string(x), true
	case nativeText:
		return string(x), true
	case nativeUnsafe:
		return string(x), true
	case markup:
		return string(x), true
	case omitValue:
		return omitText, true
	}
	return "", false
}

// Equal is Python's ==: numbers compare by value across bool, int and float;
// strings, lists and dicts by content; values of other types are unequal.
func Equal(a, b any) bool {
	if isNumber(a) {
		return isNumber(b) && compareNumbers(a, b) == 0
	}
	if sa, ok := text(a); ok {
		sb, ok := text(b)
		return ok && sa == sb
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case []any:
		if g, ok := b.(*groupTuple); ok {
			b = g.list()
		}
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !Equal(v, w) {
				return false
			}
		}
		return true
	case *dateTime, *timeDelta:
		eq, _ := dateEqual(a, b)
		return eq
	case *groupTuple:
		return Equal(x.list(), b)
	case strer:
		return a == b
	}
	return false
}

// compare is Python's ordering: -1, 0 or 1, unordered when a NaN takes
// part, or an error for types that do not order against each other
// ("'<' not supported between …").
func compare(op string, a, b any) (int, error) {
	if c, ok, err := dateCompare(op, a, b); ok {
		return c, err
	}
	if isNumber(a) && isNumber(b) {
		return compareNumbers(a, b), nil
	}
	if sa, ok := text(a); ok {
		if sb, ok := text(b); ok {
			return strings.Compare(sa, sb), nil
		}
	}
	if la, ok := a.([]any); ok {
		if lb, ok := b.([]any); ok {
			for i := 0; i < len(la) && i < len(lb); i++ {
				if Equal(la[i], lb[i]) {
					continue
				}
				return compare(op, la[i], lb[i])
			}
			return cmpOrdered(len(la), len(lb)), nil
		}
	}
	return 0, typeErrorf("'%s' not supported between instances of '%s' and '%s'", op, typeName(a), typeName(b))
}

func cmpOrdered[T int | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TypeName is Python's type(v).__name__ for a value as templates give it
// ("int", "list", "AnsibleUnsafeText", …).
func TypeName(v any) string { return typeName(v) }
