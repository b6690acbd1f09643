package expr

import (
	"math"

	"github.com/tender-sh/tender/internal/pyfmt"
)

// toJSONFilter is Ansible's to_json (json.dumps(x, **kw): keys in insertion
// order, indent None) and to_nice_json (indent=4, sort_keys=True and
// separators (',', ': '), the first two also positional). It takes the
// json.dumps arguments that change the text (indent, sort_keys,
// ensure_ascii, separators, allow_nan) and those that change nothing for
// tender's values (check_circular, skipkeys, vault_to_text,
// preprocess_unsafe=False); any other argument is refused rather than
// ignored.
func toJSONFilter(name string, x any, args []any, kw map[string]any, indent int, nice bool) (any, error) {
	o := pyfmt.JSONOptions{ASCII: true, Ordered: true}
	if nice {
		if len(args) > 2 {
			return nil, errorf("%s takes at most 2 positional arguments (indent, sort_keys), got %d", name, len(args))
		}
		o.Ordered = !Truthy(argOr(args, kw, 1, "sort_keys", true))
		o.ItemSep, o.KeySep = ",", ": "
	} else if len(args) > 0 {
		return nil, errorf("%s takes no positional arguments (json.dumps() takes 1 positional argument but %d were given)", name, len(args)+1)
	}
	iv := argOr(args, kw, 0, "indent", nil)
	if !nice {
		iv = kw["indent"]
		if v, ok := kw["sort_keys"]; ok {
			o.Ordered = !Truthy(v)
		}
	} else if iv == nil {
		iv = indent
	}
	if iv != nil {
		n, ok := integer(iv)
		if !ok {
			return nil, errorf("%s: indent must be an integer or None, got %s", name, typeName(iv))
		}
		o.Pretty, o.Indent = true, max(n, 0)
	}
	for k, v := range kw {
		switch k {
		case "indent", "sort_keys":
		case "ensure_ascii":
			o.ASCII = Truthy(v)
		case "separators":
			if nice {
				return nil, errorf("%s got multiple values for keyword argument 'separators'", name)
			}
			l, ok := v.([]any)
			a, okA := "", false
			b, okB := "", false
			if ok && len(l) == 2 {
				a, okA = text(l[0])
				b, okB = text(l[1])
			}
			if !okA || !okB {
				return nil, errorf("%s: separators must be a pair of strings, got %s", name, Repr(v))
			}
			o.ItemSep, o.KeySep = a, b
		case "vault_to_text", "check_circular", "skipkeys":
			// tender's values never hold vaulted text objects, are never
			// circular and their keys are always text: these change
			// nothing
		case "allow_nan":
			if !Truthy(v) && hasNonFinite(x) {
				return nil, errorf("Out of range float values are not JSON compliant")
			}
		case "preprocess_unsafe":
			if Truthy(v) {
				return nil, errorf("%s: preprocess_unsafe=True is not supported by tender", name)
			}
		default:
			return nil, errorf("%s: argument %q is not supported by tender", name, k)
		}
	}
	return writeJSON(x, o)
}

// hasNonFinite reports whether v holds a NaN or infinite float anywhere.
func hasNonFinite(v any) bool {
	switch t := v.(type) {
	case float64:
		return math.IsNaN(t) || math.IsInf(t, 0)
	case []any:
		for _, x := range t {
			if hasNonFinite(x) {
				return true
			}
		}
	case map[string]any:
		for _, x := range t {
			if hasNonFinite(x) {
				return true
			}
		}
	}
	return false
}
