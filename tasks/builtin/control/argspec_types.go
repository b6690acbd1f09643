package control

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/tender-sh/tender/internal/boolean"
	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/pyre"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// The type conversions of ansible-core's argument spec (the check_type_*
// functions of module_utils/common/validation.py), with their messages.
// Each returns the converted value, or an error whose text is the Python
// exception's message that ansible-core puts after "unable to convert to
// <type>: ".

// argSpecTypes are the type names an argument spec may give.
var argSpecTypes = map[string]func(any) (any, error){
	"str":     argTypeStr,
	"list":    argTypeList,
	"dict":    argTypeDict,
	"bool":    argTypeBool,
	"int":     argTypeInt,
	"float":   argTypeFloat,
	"path":    argTypePath,
	"raw":     func(v any) (any, error) { return v, nil },
	"jsonarg": argTypeJSONArg,
	"json":    argTypeJSONArg,
	"bytes":   func(v any) (any, error) { return humanToBytes(v, false) },
	"bits":    func(v any) (any, error) { return humanToBytes(v, true) },
}

// argSpecTypeNames lists argSpecTypes for messages.
const argSpecTypeNames = "str, list, dict, bool, int, float, path, raw, jsonarg, json, bytes, bits"

func argTypeStr(v any) (any, error) {
	if _, ok := shared.IsPyStr(v); ok {
		return v, nil
	}
	return shared.PyStr(shared.PyToStr(v)), nil
}

func argTypeList(v any) (any, error) {
	switch x := v.(type) {
	case []any:
		return x, nil
	case bool, int, *big.Int, float64:
		return []any{shared.PyStr(shared.PyToStr(x))}, nil
	}
	if s, ok := shared.IsPyStr(v); ok {
		parts := strings.Split(s, ",")
		out := make([]any, len(parts))
		for i, p := range parts {
			out[i] = shared.PyStr(p)
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s cannot be converted to a list", shared.PyTypeOf(v))
}

// pyMethodCall and pyImport are what ansible-core's safe_eval will not
// evaluate: it hands such a string back unchanged. They are Python's
// patterns (\w is Unicode's).
var (
	pyMethodCall = pyre.MustCompile(`\w\.\w+\(`, pyre.Options{})
	pyImport     = pyre.MustCompile(`import \w+`, pyre.Options{})
)

// unsafeToEval reports whether safe_eval would hand s back: a search
// past its bounds counts as a match.
func unsafeToEval(s string) bool {
	for _, re := range []*pyre.Regexp{pyMethodCall, pyImport} {
		if m, err := re.Search(s); m != nil || err != nil {
			return true
		}
	}
	return false
}

func argTypeDict(v any) (any, error) {
	if m, ok := v.(map[string]any); ok {
		return m, nil
	}
	s, ok := shared.IsPyStr(v)
	if !ok {
		return nil, fmt.Errorf("%s cannot be converted to a dict", shared.PyTypeOf(v))
	}
	switch {
	case strings.HasPrefix(s, "{"):
		if m, err := pyJSONLoads(s); err == nil {
			return m, nil
		}
		if unsafeToEval(s) {
			return v, nil // safe_eval refuses to look and returns the text
		}
		m, err := pyLiteralEval(s)
		if err != nil {
			return nil, errors.New("unable to evaluate string as dictionary")
		}
		return m, nil
	case strings.Contains(s, "="):
		return parseKeyValues(s)
	}
	return nil, errors.New("dictionary requested, could not parse JSON or key=value")
}

// parseKeyValues reads "k=v k2='v 2', k3=v3" as ansible-core's
// check_type_dict does: fields split on unquoted commas and spaces, quotes
// dropped, a backslash taking the next character as it is.
func parseKeyValues(s string) (any, error) {
	fields := tasks.SplitDictFields(s)
	out := make(map[string]any, len(fields))
	for i, f := range fields {
		k, val, ok := strings.Cut(f, "=")
		if !ok {
			return nil, fmt.Errorf("dictionary update sequence element #%d has length 1; 2 is required", i)
		}
		out[k] = shared.PyStr(val)
	}
	return out, nil
}

// booleanNames are ansible-core's BOOLEANS (a set: 1.0 and True are the
// same element as 1). ansible-core prints them in its set's order, which
// changes from one Python process to the next; tender prints them in the
// order the source lists them.

func argTypeBool(v any) (any, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case int, *big.Int, float64:
		n, _ := expr.Number(x)
		if n == 1 || n == 0 {
			return n == 1, nil
		}
	default:
		s, ok := shared.IsPyStr(v)
		if !ok {
			return nil, fmt.Errorf("%s cannot be converted to a bool", shared.PyTypeOf(v))
		}
		if b, ok := boolean.Word(s); ok {
			return b, nil
		}
	}
	return nil, fmt.Errorf("The value '%s' is not a valid boolean.  Valid booleans include: %s", shared.PyToStr(v), boolean.Valid)
}

// pyIntText is what Python's int() reads: a sign, decimal digits with
// single underscores between them, spaces around.
var pyIntText = regexp.MustCompile(`^[+-]?[0-9](_?[0-9])*$`)

func argTypeInt(v any) (any, error) {
	switch x := v.(type) {
	case int, *big.Int, bool:
		return x, nil
	}
	if s, ok := shared.IsPyStr(v); ok {
		s = strings.TrimFunc(s, unicode.IsSpace)
		if pyIntText.MatchString(s) {
			if n, err := strconv.Atoi(strings.ReplaceAll(s, "_", "")); err == nil {
				return n, nil
			}
		}
	}
	return nil, fmt.Errorf("%s cannot be converted to an int", shared.PyTypeOf(v))
}

// pyFloatText is what Python's float() reads (besides inf and nan).
var pyFloatText = regexp.MustCompile(`^[+-]?(([0-9](_?[0-9])*)(\.([0-9](_?[0-9])*)?)?|\.[0-9](_?[0-9])*)([eE][+-]?[0-9](_?[0-9])*)?$`)

func argTypeFloat(v any) (any, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case int, bool:
		n, _ := expr.Number(x)
		return n, nil
	case *big.Int:
		if n, _ := expr.Number(x); !math.IsInf(n, 0) {
			return n, nil
		}
		return nil, fmt.Errorf("int too large to convert to float")
	}
	if s, ok := shared.IsPyStr(v); ok {
		s = strings.TrimFunc(s, unicode.IsSpace)
		low := strings.TrimLeft(strings.ToLower(s), "+-")
		if pyFloatText.MatchString(s) || low == "inf" || low == "infinity" || low == "nan" {
			f, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
			if err == nil || errors.Is(err, strconv.ErrRange) {
				return f, nil
			}
		}
	}
	return nil, fmt.Errorf("%s cannot be converted to a float", shared.PyTypeOf(v))
}

func argTypeJSONArg(v any) (any, error) {
	if s, ok := shared.IsPyStr(v); ok {
		return shared.PyStr(strings.TrimFunc(s, unicode.IsSpace)), nil
	}
	switch v.(type) {
	case []any, map[string]any:
		s, err := pyfmt.JSON(shared.PlainValue(v), pyfmt.JSONOptions{ASCII: true})
		if err != nil {
			return nil, err
		}
		return shared.PyStr(s), nil
	}
	return nil, fmt.Errorf("%s cannot be converted to a json string", shared.PyTypeOf(v))
}

// sizeRanges are human_to_bytes's unit multipliers.
var sizeRanges = map[byte]float64{
	'Y': 1 << 80, 'Z': 1 << 70, 'E': 1 << 60, 'P': 1 << 50, 'T': 1 << 40,
	'G': 1 << 30, 'M': 1 << 20, 'K': 1 << 10, 'B': 1,
}

var humanSize = regexp.MustCompile(`^\s*([0-9]*\.?[0-9]*)\s*([A-Za-z]+)?`)

// humanToBytes is ansible-core's human_to_bytes on str(v): "1K" is 1024,
// "1.5M" 1572864; with bits, "1Mb" is 1048576 and "1MB" an error.
func humanToBytes(v any, bits bool) (any, error) {
	fail := func() (any, error) {
		if bits {
			return nil, fmt.Errorf("%s cannot be converted to a Bit value", shared.PyTypeOf(v))
		}
		return nil, fmt.Errorf("%s cannot be converted to a Byte value", shared.PyTypeOf(v))
	}
	m := humanSize.FindStringSubmatch(shared.PyToStr(v))
	if m == nil || m[1] == "" || m[1] == "." {
		return fail()
	}
	num, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return fail()
	}
	limit := 1.0
	if unit := m[2]; unit != "" {
		key := strings.ToUpper(unit[:1])[0]
		l, ok := sizeRanges[key]
		if !ok {
			return fail()
		}
		limit = l
		class, className := byte('B'), "byte"
		if bits {
			class, className = 'b', "bit"
		}
		if len(unit) > 1 && !strings.Contains(strings.ToLower(unit), className) && unit[1] != class {
			return fail()
		}
	}
	n := math.RoundToEven(num * limit)
	if n >= math.MaxInt64 || n <= math.MinInt64 {
		return fail() // Python's ints have no bound; tender's stop at 2^63
	}
	return int(n), nil
}
