package expr

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/pyyaml"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/internal/yaml11"
)

var dataFilters = map[string]filterFunc{
	"to_json": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		return toJSONFilter("to_json", x, args, kw, -1, false)
	},
	"to_nice_json": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		return toJSONFilter("to_nice_json", x, args, kw, 4, true)
	},
	"from_json": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		if len(args) > 0 {
			return nil, typeErrorf("loads() takes 1 positional argument but %d were given", len(args)+1)
		}
		strict := true
		for _, k := range pydict.Keys(kw) {
			switch k {
			case "strict":
				strict = Truthy(kw[k])
			case "cls", "object_hook", "parse_float", "parse_int", "parse_constant", "object_pairs_hook":
				if kw[k] != nil {
					return nil, errorf("from_json: tender does not take %s, which is a Python callable", k)
				}
			default:
				return nil, typeErrorf("JSONDecoder.__init__() got an unexpected keyword argument '%s'", k)
			}
		}
		s, ok := text(x)
		if !ok {
			return nil, typeErrorf("the JSON object must be str, bytes or bytearray, not %s", typeName(x))
		}
		return pyJSONLoads(s, strict)
	},
	"from_yaml": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		// Ansible's from_yaml parses text and returns anything else as
		// it is; text holding several documents is an error (PyYAML's
		// single-document load).
		s, ok := text(x)
		if !ok {
			return x, nil
		}
		d := yaml.NewDecoder(strings.NewReader(s))
		var n, more yaml.Node
		if err := d.Decode(&n); err != nil {
			if err == io.EOF {
				return nil, nil
			}
			return nil, yamlError(err)
		}
		if err := d.Decode(&more); err == nil {
			return nil, &pyError{msg: "expected a single document in the stream, but found another document", exc: "yaml.composer.ComposerError"}
		}
		if len(n.Content) == 0 {
			return nil, nil
		}
		return yaml11.Value(n.Content[0])
	},
	"to_yaml": func(_ *Env, x any, _ []any, kw map[string]any) (any, error) {
		indent, _ := integer(kw["indent"])
		if indent < 2 || indent > 9 {
			indent = 2
		}
		if err := yamlKeywords("to_yaml", kw); err != nil {
			return nil, err
		}
		out := pyyaml.Dump(plain(x), pyyaml.Options{Indent: indent, FlowLeaves: !Truthy(kw["default_flow_style"]) && kw["default_flow_style"] == nil,
			Ordered: yamlOrdered(kw), Scalar: yamlScalar})
		return yamlMarkers(out, x, kw), nil
	},
	"to_nice_yaml": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		indent, _ := integer(argOr(args, kw, 0, "indent", 4))
		if indent < 2 || indent > 9 {
			indent = 2
		}
		if err := yamlKeywords("to_nice_yaml", kw); err != nil {
			return nil, err
		}
		out := pyyaml.Dump(plain(x), pyyaml.Options{Indent: indent, Ordered: yamlOrdered(kw), Scalar: yamlScalar})
		return yamlMarkers(out, x, kw), nil
	},
	"combine": combine,
	"dict2items": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		m, ok := x.(map[string]any)
		if k, keyed := x.(Keyed); keyed {
			// A lazily resolved dict (hostvars) is a mapping too.
			var err error
			if m, err = materialize(k); err != nil {
				return nil, err
			}
			ok = true
		}
		if !ok {
			return nil, errorf("dict2items requires a dictionary, got <class '%s'> instead.", typeName(x))
		}
		kn, vn := strArg(args, kw, 0, "key_name", "key"), strArg(args, kw, 1, "value_name", "value")
		out := []any{}
		for _, k := range pydict.Keys(m) {
			out = append(out, pydict.Record(map[string]any{kn: k, vn: m[k]}, []string{kn, vn}))
		}
		return out, nil
	},
	"items2dict": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		l, ok := x.([]any)
		if !ok {
			return nil, errorf("items2dict requires a list, got <class '%s'> instead.", typeName(x))
		}
		kn, vn := strArg(args, kw, 0, "key_name", "key"), strArg(args, kw, 1, "value_name", "value")
		out := pydict.NewBuilder(len(l))
		for _, it := range l {
			m, ok := it.(map[string]any)
			if !ok {
				return nil, errorf("items2dict requires a list of dictionaries, got %s instead.", Str(x))
			}
			k, ok1 := m[kn]
			v, ok2 := m[vn]
			if !ok1 || !ok2 {
				return nil, errorf("items2dict requires each dictionary in the list to contain the keys '%s' and '%s', got %s instead.", kn, vn, Str(x))
			}
			out.Set(Str(k), v)
		}
		return out.Map(), nil
	},
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return pydict.Like(out, m)
}

// fromJSON turns the json.Numbers in v into Python's numbers, in place.
// yamlError is PyYAML's exception for a document that does not parse,
// which Ansible reports as the task's exception, not as a message: the
// same problem libyaml names, without go-yaml's "yaml: line N:" prefix.
func yamlError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if i := strings.Index(msg, ": "); strings.HasPrefix(msg, "line ") && i > 0 {
		msg = msg[i+2:]
	}
	return &pyError{msg: msg, exc: "yaml.YAMLError"}
}

func fromJSON(v any) (any, error) {
	var err error
	switch t := v.(type) {
	case json.Number:
		return jsonNumber(string(t))
	case []any:
		for i := range t {
			if t[i], err = fromJSON(t[i]); err != nil {
				return nil, err
			}
		}
	case map[string]any:
		for k := range t {
			if t[k], err = fromJSON(t[k]); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}

// toJSON is Python's json.dumps(v, sort_keys=True, ensure_ascii=True): one
// line with ", " and ": " separators, or indent spaces a level when indent
// >= 0.
func toJSON(v any, indent int) (string, error) {
	return writeJSON(v, pyfmt.JSONOptions{Pretty: indent >= 0, Indent: max(indent, 0), ASCII: true})
}

// writeJSON writes v as JSON with o, converting the values only templates
// have.
func writeJSON(v any, o pyfmt.JSONOptions) (string, error) {
	o.MaxLen = maxSize
	o.Convert = jsonValue
	return pyfmt.JSON(v, o)
}

// jsonValue turns a value only templates have into one JSON writes, as
// Ansible's JSON encoder does, or says why it cannot.
func jsonValue(v any) (any, error) {
	switch t := v.(type) {
	case *undefined:
		return nil, t.err()
	case Scope:
		return materialize(t)
	case *groupTuple:
		return t.list(), nil
	case *dateTime:
		return t.isoformat("T"), nil
	}
	s, ok := text(v)
	if !ok {
		return nil, errorf("Object of type %s is not JSON serializable", typeName(v))
	}
	return s, nil
}

// yamlKeywords refuses the keywords of PyYAML's dump that the YAML
// filters accept but tender's writer does not honour, when given a value
// other than the one Ansible's filters use anyway: tender writes with
// PyYAML's defaults (no line folding, unicode as it is, no tags), and
// honours indent, sort_keys, default_flow_style, explicit_start and
// explicit_end.
func yamlKeywords(name string, kw map[string]any) error {
	for _, k := range pydict.Keys(kw) {
		v := kw[k]
		ok := false
		switch k {
		case "indent", "sort_keys", "default_flow_style", "explicit_start", "explicit_end":
			ok = true
		case "allow_unicode":
			ok = Truthy(v)
		case "default_style", "line_break", "encoding", "version", "tags", "width":
			ok = v == nil
		case "canonical":
			ok = !Truthy(v)
		}
		if !ok {
			return errorf("%s: %s=%s is not supported by tender", name, k, Repr(v))
		}
	}
	return nil
}

// yamlMarkers adds the document markers explicit_start ("---") and
// explicit_end ("...") ask for to the YAML out that x was written as, as
// PyYAML writes them: the start marker on a line of its own before a
// block collection, before anything else on the same line; the end
// marker once (a plain scalar's document has it already).
func yamlMarkers(out string, x any, kw map[string]any) string {
	if Truthy(kw["explicit_start"]) {
		switch plain(x).(type) {
		case map[string]any, []any:
			if !strings.HasPrefix(out, "{") && !strings.HasPrefix(out, "[") {
				out = "---\n" + out
				break
			}
			out = "--- " + out
		default:
			out = "--- " + out
		}
	}
	if Truthy(kw["explicit_end"]) && !strings.HasSuffix(out, "...\n") {
		out += "...\n"
	}
	return out
}

// yamlOrdered reports whether the YAML filters' sort_keys= asks for the
// mappings' own key order.
func yamlOrdered(kw map[string]any) bool {
	v, ok := kw["sort_keys"]
	return ok && !Truthy(v)
}

// yamlScalar is how to_yaml writes a value of the language's own types
// that plain leaves: an undefined value as nothing, others as their text.
func yamlScalar(v any) (string, bool) {
	if _, ok := v.(*undefined); ok {
		return "", true
	}
	s, _ := text(v)
	return s, false
}
