package report

import (
	"bytes"
	"encoding/json"
	"math/big"
	"reflect"
	"strconv"

	"github.com/tender-sh/tender/internal/pyfmt"
)

// marshal writes v as Ansible's callbacks do, with Python's json.dumps
// (sort_keys=True, ensure_ascii=False): ", " and ": " between items on
// one line, or "," and ": " with indent (its width in spaces) from the
// second level on; a float always shows as one ("3.0"), Infinity and NaN
// as Python's literals, and <, > and & as they are.
func marshal(v any, indent string) ([]byte, error) {
	s, err := pyfmt.JSON(v, pyfmt.JSONOptions{Pretty: indent != "", Indent: len(indent), Convert: jsonValue})
	return []byte(s), err
}

// jsonValue turns a value of a type pyfmt.JSON does not know into one it
// does: other integer and float sizes, named strings (an unsafe string),
// typed slices and maps, and, through encoding/json, anything else.
func jsonValue(v any) (any, error) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.String:
		return rv.String(), nil
	case reflect.Bool:
		return rv.Bool(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return int(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return new(big.Int).SetUint64(rv.Uint()), nil
	case reflect.Float32, reflect.Float64:
		return rv.Float(), nil
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return nil, nil
		}
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = rv.Index(i).Interface()
		}
		return out, nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			break
		}
		if rv.IsNil() {
			return nil, nil
		}
		out := make(map[string]any, rv.Len())
		it := rv.MapRange()
		for it.Next() {
			out[it.Key().String()] = it.Value().Interface()
		}
		return out, nil
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil, nil
		}
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return numbers(out), nil
}

// numbers turns encoding/json's numbers back into ints and floats.
func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.Atoi(string(x)); err == nil {
			return i
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
		return string(x)
	case []any:
		for i := range x {
			x[i] = numbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = numbers(x[k])
		}
	}
	return v
}
