package expr

import (
	"encoding/json"
	"github.com/tender-sh/tender/internal/pyfmt"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/yaml11"
	"go.yaml.in/yaml/v3"
)

var dataFilters = map[string]filterFunc{
	"to_json": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		indent := -1
		if v, ok := kw["indent"]; ok {
			indent, _ = integer(v)
		}
		var b strings.Builder
		err := writeJSON(&b, x, indent, 0)
		return b.String(), err
	},
	"to_nice_json": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		indent, _ := integer(argOr(args, kw, 0, "indent", 4))
		var b strings.Builder
		err := writeJSON(&b, x, indent, 0)
		return b.String(), err
	},
	"from_json": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		d := json.NewDecoder(strings.NewReader(Str(x)))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			return nil, errorf("from_json: %v", err)
		}
		if d.More() {
			return nil, errorf("from_json: Extra data")
		}
		return fromJSON(v), nil
	},
	"from_yaml": func(_ *Env, x any, _ []any, _ map[string]any) (any, error) {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(Str(x)), &n); err != nil {
			return nil, errorf("from_yaml: %v", err)
		}
		if len(n.Content) == 0 {
			return nil, nil
		}
		return yaml11.Value(n.Content[0])
	},
	"to_yaml": func(_ *Env, x any, _ []any, kw map[string]any) (any, error) {
		return toYAML(x, 2, !Truthy(kw["default_flow_style"]) && kw["default_flow_style"] == nil), nil
	},
	"to_nice_yaml": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		indent, _ := integer(argOr(args, kw, 0, "indent", 4))
		if indent < 2 || indent > 9 {
			indent = 2
		}
		return toYAML(x, indent, false), nil
	},
	"combine": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		recursive := Truthy(kw["recursive"])
		listMerge := "replace"
		if v, ok := kw["list_merge"]; ok {
			listMerge = Str(v)
		}
		out, ok := x.(map[string]any)
		if !ok {
			return nil, errorf("combine expects dictionaries, got %s", Repr(x))
		}
		out = copyMap(out)
		for _, a := range flatten(args, -1, false) {
			m, ok := a.(map[string]any)
			if !ok {
				return nil, errorf("combine expects dictionaries, got %s", Repr(a))
			}
			merge(out, m, recursive, listMerge)
		}
		return out, nil
	},
	"dict2items": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, errorf("dict2items requires a dictionary, got %s instead.", typeName(x))
		}
		kn, vn := strArg(args, kw, 0, "key_name", "key"), strArg(args, kw, 1, "value_name", "value")
		out := []any{}
		for _, k := range sortedKeys(m) {
			out = append(out, map[string]any{kn: k, vn: m[k]})
		}
		return out, nil
	},
	"items2dict": func(_ *Env, x any, args []any, kw map[string]any) (any, error) {
		l, ok := x.([]any)
		if !ok {
			return nil, errorf("items2dict requires a list, got %s instead.", typeName(x))
		}
		kn, vn := strArg(args, kw, 0, "key_name", "key"), strArg(args, kw, 1, "value_name", "value")
		out := map[string]any{}
		for _, it := range l {
			m, ok := it.(map[string]any)
			if !ok {
				return nil, errorf("items2dict requires a list of dictionaries")
			}
			k, ok1 := m[kn]
			v, ok2 := m[vn]
			if !ok1 || !ok2 {
				return nil, errorf("items2dict requires each dictionary to have '%s' and '%s' keys", kn, vn)
			}
			out[Str(k)] = v
		}
		return out, nil
	},
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func merge(dst, src map[string]any, recursive bool, listMerge string) {
	for k, v := range src {
		old, exists := dst[k]
		if recursive && exists {
			om, ok1 := old.(map[string]any)
			nm, ok2 := v.(map[string]any)
			if ok1 && ok2 {
				c := copyMap(om)
				merge(c, nm, recursive, listMerge)
				dst[k] = c
				continue
			}
		}
		if exists {
			ol, ok1 := old.([]any)
			nl, ok2 := v.([]any)
			if ok1 && ok2 {
				switch listMerge {
				case "keep":
					continue
				case "append":
					dst[k] = append(append([]any{}, ol...), nl...)
					continue
				case "prepend":
					dst[k] = append(append([]any{}, nl...), ol...)
					continue
				}
			}
		}
		dst[k] = v
	}
}

func fromJSON(v any) any {
	switch t := v.(type) {
	case json.Number:
		s := string(t)
		if !strings.ContainsAny(s, ".eE") {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				return int(n)
			}
		}
		f, _ := strconv.ParseFloat(s, 64)
		return f
	case []any:
		for i := range t {
			t[i] = fromJSON(t[i])
		}
	case map[string]any:
		for k := range t {
			t[k] = fromJSON(t[k])
		}
	}
	return v
}

// writeJSON is Python's json.dumps: ", " and ": " separators, ASCII-only
// output, floats as repr, keys sorted (Python would keep insertion order).
func writeJSON(b *strings.Builder, v any, indent, level int) error {
	if b.Len() > maxSize {
		return errorf("JSON output too large")
	}
	nl := func(l int) {
		if indent >= 0 {
			b.WriteByte('\n')
			b.WriteString(strings.Repeat(" ", indent*l))
		}
	}
	sep := ", "
	if indent >= 0 {
		sep = ","
	}
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case int:
		b.WriteString(strconv.Itoa(t))
	case float64:
		s := pyfmt.Float(t)
		switch s {
		case "inf":
			s = "Infinity"
		case "-inf":
			s = "-Infinity"
		case "nan":
			s = "NaN"
		}
		b.WriteString(s)
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteString(sep)
			}
			nl(level + 1)
			if err := writeJSON(b, e, indent, level+1); err != nil {
				return err
			}
		}
		nl(level)
		b.WriteByte(']')
	case map[string]any:
		if len(t) == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteByte('{')
		for i, k := range sortedKeys(t) {
			if i > 0 {
				b.WriteString(sep)
			}
			nl(level + 1)
			b.WriteString(pyfmt.JSONQuote(k, true))
			b.WriteString(": ")
			if err := writeJSON(b, t[k], indent, level+1); err != nil {
				return err
			}
		}
		nl(level)
		b.WriteByte('}')
	case *undefined:
		return t.err()
	case Scope:
		m, err := materialize(t)
		if err != nil {
			return err
		}
		return writeJSON(b, m, indent, level)
	default:
		s, ok := text(v)
		if !ok {
			return errorf("Object of type %s is not JSON serializable", typeName(v))
		}
		b.WriteString(pyfmt.JSONQuote(s, true))
	}
	return nil
}
