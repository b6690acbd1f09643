package expr

import (
	"math"

	"github.com/tender-sh/tender/internal/boolean"
)

// valueTests are Ansible's tests on lists, truthiness, numbers and URIs.
var valueTests = map[string]testFunc{
	"any": func(x any, _ []any, _ map[string]any) (bool, error) {
		items, err := iterate(x)
		if err != nil {
			return false, err
		}
		for _, it := range items {
			if Truthy(it) {
				return true, nil
			}
		}
		return false, nil
	},
	"all": func(x any, _ []any, _ map[string]any) (bool, error) {
		items, err := iterate(x)
		if err != nil {
			return false, err
		}
		for _, it := range items {
			if !Truthy(it) {
				return false, nil
			}
		}
		return true, nil
	},
	"truthy": func(x any, args []any, kw map[string]any) (bool, error) { return truthy(x, args, kw), nil },
	"falsy":  func(x any, args []any, kw map[string]any) (bool, error) { return !truthy(x, args, kw), nil },
	// tender decrypts !vault values when it loads them and has no vault
	// objects (vault(wrap_object=True) is refused), so no value is one
	"vault_encrypted": func(any, []any, map[string]any) (bool, error) { return false, nil },
	"nan": func(x any, _ []any, _ map[string]any) (bool, error) {
		f, ok := x.(float64)
		return ok && math.IsNaN(f), nil
	},
	"uri": func(x any, args []any, kw map[string]any) (bool, error) {
		return isURI(x, argOr(args, kw, 0, "schemes", nil)), nil
	},
	"url": func(x any, args []any, kw map[string]any) (bool, error) {
		if !isURI(x, argOr(args, kw, 0, "schemes", nil)) {
			return false, nil
		}
		u, _ := urlSplit(Str(x))
		return u["netloc"] != "" || u["scheme"] == "file", nil
	},
	"urn": func(x any, _ []any, _ map[string]any) (bool, error) { return isURI(x, []any{"urn"}), nil },
}

// truthy is Ansible's truthy(value, convert_bool=False): Python's truth,
// after reading a boolean-like string ("yes", "off", …) as a boolean when
// convert_bool is set.
func truthy(x any, args []any, kw map[string]any) bool {
	if Truthy(argOr(args, kw, 0, "convert_bool", false)) {
		if s, ok := text(x); ok {
			if b, ok := boolean.Word(s); ok {
				return b
			}
		}
	}
	return Truthy(x)
}

// isURI is Ansible's uri test: any string parses as a URI; with schemes,
// its scheme must be one of them.
func isURI(x any, schemes any) bool {
	s, ok := text(x)
	if !ok {
		return false
	}
	u, err := urlSplit(s)
	if err != nil {
		return false
	}
	if !Truthy(schemes) {
		return true
	}
	in, err := contain(schemes, u["scheme"])
	return err == nil && in
}
