package expr

import (
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/yaml11"
)

// evalFilter evaluates `x | name(args)`.
func (ev *evaluator) evalFilter(n *filterNode) (any, error) {
	name := pluginName(n.name)
	_, typeErr := undefinedInput[name]
	keepX := name == "default" || name == "d" || name == "mandatory" || name == "string" || name == "type_debug" || typeErr ||
		name == "to_yaml" || name == "to_nice_yaml" || name == "items"
	x, args, kwargs, err := ev.operands(n.x, keepX, &n.callArgs, true)
	if err != nil {
		return nil, err
	}
	if u, ok := x.(*undefined); ok {
		// What the filter's Python does with an undefined value: a
		// TypeError naming AnsibleUndefined (os.path's functions, which
		// Ansible reports as an undefined variable), or to_yaml's own
		// error around the undefined one.
		if msg, ok := undefinedInput[name]; ok {
			return nil, ev.wrap(n, typeErrorf("%s", msg))
		}
		if name == "to_yaml" || name == "to_nice_yaml" {
			// Ansible's AnsibleFilterError, its cause repeated after it.
			m := u.err().Error()
			return nil, ev.wrap(n, errorf("%s - %s. %s", name, m, m))
		}
	}
	if _, ok := x.(*undefined); ok && name == "type_debug" {
		// The name of the undefined value's class, as Ansible's filter
		// gives it without touching the value.
		return "AnsibleUndefined", nil
	}
	if u, ok := x.(*undefined); ok && name == "string" {
		// str() of Jinja's lenient undefined is empty; Ansible's fails
		if !u.lenient {
			return nil, ev.wrap(n.x, u.err())
		}
		x = ""
	}
	if slices.Contains(higherOrderFilters, name) && !Truthy(x) {
		// Jinja's select, reject, map and the attr ones do nothing
		// with an empty (falsy) input, their arguments unused.
		return []any{}, nil
	}
	if !undefinedArgFilters[name] {
		if err := ev.definedArgs(&n.callArgs, args, kwargs); err != nil {
			return nil, err
		}
	}
	if l, ok := x.([]any); ok {
		if err := ev.step(len(l)); err != nil {
			return nil, err
		}
	}
	var v any
	switch name {
	case "select", "reject", "selectattr", "rejectattr", "map":
		v, err = ev.higherOrder(n, name, x, args, kwargs)
	default:
		v, err = applyFilter(ev.env(), n.name, false, x, args, kwargs)
		v = stringType(n.name, keepUnsafe(x, unsafeFilters[name], v))
	}
	if err != nil {
		return nil, err
	}
	return v, ev.builtCall(n, v, true, x, args, kwargs)
}

// undefinedInput are the filters whose Python raises a TypeError when
// the value filtered is undefined (recorded from ansible-core 2.14): the
// os.path functions, str.split and json.loads.
var undefinedInput = map[string]string{
	"basename": pathTypeError, "dirname": pathTypeError, "splitext": pathTypeError, "expanduser": pathTypeError,
	"expandvars": pathTypeError, "realpath": pathTypeError, "win_basename": pathTypeError, "win_dirname": pathTypeError,
	"win_splitdrive": pathTypeError,
	"split":          "descriptor 'split' for 'str' objects doesn't apply to a 'AnsibleUndefined' object",
	"from_json":      "the JSON object must be str, bytes or bytearray, not AnsibleUndefined",
	"abs":            "bad operand type for abs(): 'AnsibleUndefined'",
}

const pathTypeError = "expected str, bytes or os.PathLike object, not AnsibleUndefined"

// undefinedArgFilters are the filters that take an undefined argument as
// it is, as Jinja hands every filter its arguments, the filter failing
// only when it uses one: extract's container, whose lookups then stay
// undefined, as Ansible's undefined answers every key with itself;
// format, whose %r shows it; default and ternary, which may return it
// (or leave it unused). Any other filter fails on an undefined argument.
var undefinedArgFilters = map[string]bool{"extract": true, "format": true, "default": true, "d": true, "ternary": true}

// definedArgs fails on the first undefined argument of a filter (in the
// order written), with its error.
func (ev *evaluator) definedArgs(c *callArgs, args []any, kwargs map[string]any) error {
	for i, a := range args {
		if u, ok := a.(*undefined); ok {
			at := node(nil)
			if i < len(c.args) {
				at = c.args[i]
			}
			return ev.wrap(at, u.err())
		}
	}
	for _, k := range c.kwargs {
		if u, ok := kwargs[k.name].(*undefined); ok {
			return ev.wrap(k.val, u.err())
		}
	}
	return nil
}

// stringType marks the result of Ansible's STRING_TYPE_FILTERS (named as
// Ansible's default configuration names them, without a collection) as
// text that the converting concat leaves alone.
func stringType(name string, v any) any {
	switch name {
	case "string", "to_json", "to_nice_json", "to_yaml", "to_nice_yaml":
		if s, ok := text(v); ok {
			return nativeText(s)
		}
	}
	return v
}

type filterFunc func(env *Env, x any, args []any, kw map[string]any) (any, error)

// filters is the filter table; it is filled in init-free style by
// filterTable so that the tables in filters_*.go stay next to their code.
var filters = filterTable()

func filterTable() map[string]filterFunc {
	m := map[string]filterFunc{}
	for _, t := range []map[string]filterFunc{basicFilters, stringFilters, listFilters, dataFilters, urlFilters, jinjaFilters, ansibleFilters, vaultFilters} {
		for k, f := range t {
			m[k] = f
		}
	}
	return m
}

// applyFilter runs the filter named name (as written: ansible.builtin. or
// ansible.legacy. may lead it); dynamic says the name was given as a
// string (map's), which changes the error for a name not found.
func applyFilter(env *Env, written string, dynamic bool, x any, args []any, kwargs map[string]any) (any, error) {
	name := pluginName(written)
	if err := env.checkPure("filter", name); err != nil {
		return nil, err
	}
	f, ok := filterOf(name)
	if !ok {
		if pf, ok := env.pluginFilter(name); ok {
			if err := env.checkPure("plugin", name); err != nil {
				return nil, err
			}
			return pf(env, x, args, kwargs)
		}
		if why := refusedReason("filter", name); why != "" {
			return nil, errorf("the filter '%s' is not supported by tender: %s", name, why)
		}
		return nil, loadError(written, dynamic)
	}
	if err := checkSignature("filter", name, 1+len(args), kwargs); err != nil {
		return nil, err
	}
	if pathFilters[name] {
		if err := pathArg(x); err != nil {
			return nil, err
		}
	}
	return f(env, x, args, kwargs)
}

// pathFilters are the filters ansible-core runs through Python's
// os.path (or ntpath), which takes only a str (or bytes, or a path
// object) as the path.
var pathFilters = map[string]bool{"basename": true, "dirname": true, "expanduser": true, "expandvars": true,
	"realpath": true, "relpath": true, "splitext": true, "win_basename": true, "win_dirname": true, "win_splitdrive": true}

// pathArg refuses a path that is not text, with os.fspath's TypeError.
func pathArg(x any) error {
	if _, ok := text(x); ok {
		return nil
	}
	if u, ok := x.(*undefined); ok {
		return u.err()
	}
	return typeErrorf("expected str, bytes or os.PathLike object, not %s", typeName(x))
}

var basicFilters = map[string]filterFunc{
	"default": fDefault,
	"d":       fDefault,
	"bool": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		switch t := x.(type) {
		case bool:
			return t, nil
		case nil:
			return nil, nil // Ansible's to_bool passes None through
		}
		if s, ok := text(x); ok {
			s = strings.ToLower(s)
			return s == "yes" || s == "on" || s == "1" || s == "true", nil
		}
		return Equal(x, 1), nil
	},
	"int": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		def := argOr(args, kw, 0, "default", 0)
		base, _ := integer(argOr(args, kw, 1, "base", 10))
		// Jinja's do_int: int(x) (int(x, base) for a string), else
		// int(float(x)), else the default; Python's ValueError (NaN, not a
		// number) gives the default, its OverflowError (infinity) fails
		if s, ok := text(x); ok {
			if n, ok, err := pyIntValue(s, base); ok || err != nil {
				return n, err
			}
			if f, ok := pyFloat(s); ok && !math.IsNaN(f) {
				return intOfFloat(f)
			}
			return def, nil
		}
		switch t := x.(type) {
		case bool, int, *big.Int:
			return intArith("+", 0, t)
		case float64:
			if math.IsNaN(t) {
				return def, nil
			}
			return intOfFloat(t)
		}
		return def, nil
	},
	"float": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		def := argOr(args, kw, 0, "default", 0.0)
		if s, ok := text(x); ok {
			if f, ok := pyFloat(s); ok {
				return f, nil
			}
			return def, nil
		}
		if isNumber(x) {
			return floatOf(x)
		}
		return def, nil
	},
	"string": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) { return Str(x), nil },
	"type_debug": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		// A marked string shows its class, as Ansible's does.
		switch x.(type) {
		case yaml11.Unsafe:
			return "AnsibleUnsafeText", nil
		case nativeUnsafe:
			return "NativeJinjaUnsafeText", nil
		}
		return typeName(x), nil
	},
	"ternary": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		t, f := argOr(args, kw, 0, "true_val", nil), argOr(args, kw, 1, "false_val", nil)
		if none := argOr(args, kw, 2, "none_val", nil); x == nil && none != nil {
			return none, nil
		}
		if Truthy(x) {
			return t, nil
		}
		return f, nil
	},
	"abs": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		switch t := x.(type) {
		case bool, int, *big.Int:
			return absInt(t)
		case float64:
			return math.Abs(t), nil
		}
		return nil, typeErrorf("bad operand type for abs(): '%s'", typeName(x))
	},
	"round": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		pv := argOr(args, kw, 0, "precision", 0)
		method := Str(argOr(args, kw, 1, "method", "common"))
		if method != "common" && method != "ceil" && method != "floor" {
			return nil, errorf("method must be common, ceil or floor")
		}
		if !isNumber(x) {
			return nil, errorf("type %s doesn't define __round__ method", typeName(x))
		}
		prec, ok := integer(pv)
		if !ok {
			if _, big := pv.(*big.Int); big {
				return nil, errorf("Python int too large to convert to C ssize_t")
			}
			if method == "common" || !isNumber(pv) {
				// Python's round takes a whole number of digits;
				// ceil and floor compute 10 ** precision
				if method == "common" {
					return nil, typeErrorf("'%s' object cannot be interpreted as an integer", typeName(pv))
				}
				return nil, typeErrorf("unsupported operand type(s) for ** or pow(): 'int' and '%s'", typeName(pv))
			}
		}
		if integral(x) && method == "common" {
			return roundInt(x, prec)
		}
		f, err := floatOf(x)
		if err != nil {
			return nil, err
		}
		if method != "common" {
			p := math.Pow(10, float64(prec))
			if pf, isFloat := pv.(float64); isFloat {
				p = math.Pow(10, pf)
			}
			if method == "ceil" {
				return math.Ceil(f*p) / p, nil
			}
			return math.Floor(f*p) / p, nil
		}
		if prec < 0 || prec > 300 {
			p := math.Pow(10, float64(-prec))
			return math.RoundToEven(f/p) * p, nil
		}
		r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', prec, 64), 64)
		return r, nil
	},
}

// fDefault is default(value, default_value=”, boolean=False).
func fDefault(_ *Env, x any, args []any, kw map[string]any) (any, error) {
	def := argOr(args, kw, 0, "default_value", "")
	boolean := Truthy(argOr(args, kw, 1, "boolean", false))
	if _, u := x.(*undefined); u || boolean && !Truthy(x) {
		return def, nil
	}
	return x, nil
}

// pyInt is pyIntValue for an integer that fits in an int.
func pyInt(s string, base int) (int, bool) {
	v, ok, _ := pyIntValue(s, base)
	n, isInt := v.(int)
	return n, ok && isInt
}

// pyIntValue is Python's int(s, base): surrounding whitespace, a sign and
// underscores between digits are allowed; base 0 reads a prefix. More
// than 4300 digits in base 10 are not an integer (Python's ValueError);
// an integer past tender's limit is an error.
func pyIntValue(s string, base int) (any, bool, error) {
	s = strings.TrimSpace(s)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if base == 16 || base == 8 || base == 2 || base == 0 {
		l := strings.ToLower(s)
		for p, b := range map[string]int{"0x": 16, "0o": 8, "0b": 2} {
			if strings.HasPrefix(l, p) && (base == 0 || base == b) {
				// One underscore may follow the prefix ("0x_1f").
				s, base = strings.TrimPrefix(s[2:], "_"), b
			}
		}
		if base == 0 {
			// A decimal literal of base 0 has no leading zero: "0664"
			// is not a number, "00" and "0_0" are 0.
			if strings.HasPrefix(s, "0") && strings.Trim(s, "0_") != "" {
				return 0, false, nil
			}
			base = 10
		}
	}
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return 0, false, nil
	}
	n, err := parseInt(strings.ReplaceAll(s, "_", ""), base)
	if err == errTooLarge {
		return nil, false, err
	}
	if err != nil {
		return 0, false, nil
	}
	if neg {
		n, _ = negInt(n)
	}
	return n, true, nil
}

// PyFloat is Python's float(s): false when Python raises ValueError.
func PyFloat(s string) (float64, bool) { return pyFloat(s) }

// pyFloat is Python's float(s).
func pyFloat(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	l := strings.ToLower(strings.TrimLeft(s, "+-"))
	switch l {
	case "inf", "infinity", "nan":
		if l == "nan" {
			return math.NaN(), true
		}
		if strings.HasPrefix(s, "-") {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	if s == "" || strings.HasPrefix(l, "0x") || strings.ContainsAny(l, "p") || strings.HasPrefix(s, "_") || strings.HasSuffix(s, "_") || strings.Contains(s, "__") {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return 0, false
	}
	return f, true
}
