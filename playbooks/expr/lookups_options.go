package expr

import (
	"math"
	"math/big"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
)

// The options of the lookups whose ansible-core implementation reads its
// keyword arguments through the plugin configuration (set_options): each
// option a lookup declares is converted to its declared type and checked
// against its choices before the lookup runs, an alias counts as the
// option, None counts as not given, and a keyword no option has is
// ignored. testdata/plugins/options.json records the declarations.

// optSpec is one option a plugin declares.
type optSpec struct {
	name    string
	typ     string // Ansible's type name; "" for none
	choices []string
	aliases []string
}

// lookupOptionSpecs are the declared options of the lookups that read
// their keyword arguments as plugin configuration. The config lookup
// reads its own (lookups_config.go); url is refused.
var lookupOptionSpecs = map[string][]optSpec{
	"csvfile": {{name: "col"}, {name: "default"}, {name: "delimiter"}, {name: "encoding"}, {name: "file"}},
	"env":     {{name: "default", typ: "raw"}},
	"file":    {{name: "lstrip", typ: "bool"}, {name: "rstrip", typ: "bool"}},
	"first_found": {{name: "files", typ: "list"}, {name: "paths", typ: "list"},
		{name: "skip", typ: "boolean"}},
	"ini": {{name: "allow_no_value", typ: "bool", aliases: []string{"allow_none"}}, {name: "case_sensitive"},
		{name: "default"}, {name: "encoding"}, {name: "file"}, {name: "re", typ: "boolean"}, {name: "section"},
		{name: "type", choices: []string{"ini", "properties"}}},
	"password": {{name: "chars", typ: "list"}, {name: "encrypt"}, {name: "ident", typ: "string"},
		{name: "length", typ: "integer"}, {name: "seed", typ: "str"}},
	"template": {{name: "comment_end_string", typ: "str"}, {name: "comment_start_string", typ: "str"},
		{name: "convert_data", typ: "bool"}, {name: "jinja2_native", typ: "bool"},
		{name: "template_vars", typ: "dict"}, {name: "variable_end_string", typ: "str"},
		{name: "variable_start_string", typ: "str"}},
	"unvault": {},
	"vars":    {{name: "default"}},
}

// lookupOptions is what a lookup of lookupOptionSpecs sees of its keyword
// arguments: the declared options given (not None), under their own names,
// converted as Ansible's configuration converts them. A value of the wrong
// type or outside the choices fails whatever errors= says, with Ansible's
// message; a lookup with no declaration gets its keywords as they are.
func lookupOptions(name string, kw map[string]any) (map[string]any, error) {
	specs, ok := lookupOptionSpecs[name]
	if !ok {
		return kw, nil
	}
	out := map[string]any{}
	var order []string
	for _, s := range specs {
		v, given := kw[s.name]
		for _, a := range s.aliases {
			if given {
				break
			}
			v, given = kw[a]
		}
		if !given || v == nil {
			continue
		}
		entry := "plugin_type: lookup plugin: " + name + " setting: " + s.name + " "
		conv, err := ensureType(v, s.typ)
		if err != nil {
			if ve, ok := err.(*valueError); ok {
				return nil, fatalf("Invalid type for configuration option %s (from Direct): %s", strings.TrimSpace(entry), ve.msg)
			}
			return nil, ansibleErrorf("Unhandled exception when retrieving %s:\n%s. %s", s.name, err.Error(), err.Error())
		}
		if s.choices != nil && conv != nil && !optionInChoices(conv, s.choices) {
			return nil, fatalf("Invalid value \"%s\" for configuration option \"%s\", valid values are: %s", Str(conv), entry, strings.Join(s.choices, ", "))
		}
		out[s.name] = conv
		order = append(order, s.name)
	}
	return pydict.Record(out, order), nil
}

// optionInChoices reports whether v (each item of a list) is one of choices.
func optionInChoices(v any, choices []string) bool {
	if l, ok := v.([]any); ok {
		for _, x := range l {
			if !optionInChoices(x, choices) {
				return false
			}
		}
		return true
	}
	for _, c := range choices {
		if Equal(v, c) {
			return true
		}
	}
	return false
}

// valueError is Python's ValueError out of a conversion, which Ansible
// reports as an option of the wrong type; any other error is Python's
// TypeError.
type valueError struct{ msg string }

func (e *valueError) Error() string { return e.msg }

// ensureType converts an option's value to its declared type as Ansible's
// configuration does (ensure_type): booleans leniently (anything not
// true is false), integers and floats as Python's int() and float(),
// lists from comma-separated text, text without its surrounding quotes.
func ensureType(v any, typ string) (any, error) {
	invalid := func(what string) error {
		return &valueError{"Invalid type provided for \"" + what + "\": " + Str(v)}
	}
	switch strings.ToLower(typ) {
	case "boolean", "bool":
		switch v.(type) {
		case []any, map[string]any:
			return nil, errorf("unhashable type: '%s'", typeName(v))
		}
		return ansibleBool(v), nil
	case "integer", "int":
		return optionInt(v)
	case "float":
		switch t := v.(type) {
		case bool:
			return float64(boolInt(t)), nil
		case int, float64, *big.Int:
			return floatOf(t)
		}
		if s, ok := text(v); ok {
			f, ok := pyFloat(s)
			if !ok {
				return nil, &valueError{"could not convert string to float: " + Repr(s)}
			}
			return f, nil
		}
		return nil, errorf("float() argument must be a string or a real number, not '%s'", typeName(v))
	case "list":
		if s, ok := text(v); ok {
			parts := strings.Split(s, ",")
			out := make([]any, len(parts))
			for i, p := range parts {
				out[i] = unquote(strings.TrimFunc(p, pySpace))
			}
			return out, nil
		}
		if _, ok := v.([]any); !ok {
			return nil, invalid("list")
		}
	case "dict", "dictionary":
		if _, ok := v.(map[string]any); !ok {
			return nil, invalid("dictionary")
		}
	case "str", "string":
		switch v.(type) {
		case bool, int, *big.Int, float64:
			return unquote(Str(v)), nil
		}
		s, ok := text(v)
		if !ok {
			return nil, invalid("string")
		}
		return unquote(s), nil
	default:
		if s, ok := text(v); ok {
			return unquote(s), nil
		}
	}
	return v, nil
}

// optionInt is Python's int(v) of an option's value (any size).
func optionInt(v any) (any, error) {
	switch t := v.(type) {
	case bool:
		return boolInt(t), nil
	case int, *big.Int:
		return t, nil
	case float64:
		if math.IsNaN(t) {
			return nil, &valueError{"cannot convert float NaN to integer"}
		}
		return intOfFloat(t)
	}
	if s, ok := text(v); ok {
		n, ok, err := pyIntValue(s, 10)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, &valueError{"invalid literal for int() with base 10: " + Repr(s)}
		}
		return n, nil
	}
	return nil, errorf("int() argument must be a string, a bytes-like object or a real number, not '%s'", typeName(v))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
