package pydict

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
)

// maxJSONDepth bounds the nesting DecodeJSON accepts.
const maxJSONDepth = 10000

// DecodeJSON reads the next JSON value from d as encoding/json would decode
// it into an any (objects as map[string]any, arrays as []any; numbers as
// d's settings give them), with each object's keys in the order written.
// A key written twice keeps its first place and its last value, as
// Python's json.loads does.
func DecodeJSON(d *json.Decoder) (any, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	return decodeFrom(d, tok, 0)
}

func decodeFrom(d *json.Decoder, tok json.Token, depth int) (any, error) {
	delim, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	if depth >= maxJSONDepth {
		return nil, errors.New("JSON nested too deeply")
	}
	switch delim {
	case '[':
		out := []any{}
		for d.More() {
			v, err := decodeAt(d, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		_, err := d.Token() // ]
		return out, err
	case '{':
		b := NewBuilder(0)
		for d.More() {
			kt, err := d.Token()
			if err != nil {
				return nil, err
			}
			k, ok := kt.(string)
			if !ok {
				return nil, fmt.Errorf("JSON object key %v is not a string", kt)
			}
			v, err := decodeAt(d, depth+1)
			if err != nil {
				return nil, err
			}
			b.Set(k, v)
		}
		if _, err := d.Token(); err != nil { // }
			return nil, err
		}
		return b.Map(), nil
	}
	return nil, fmt.Errorf("unexpected JSON delimiter %v", delim)
}

// decodeAt is DecodeJSON for a value nested depth levels deep.
func decodeAt(d *json.Decoder, depth int) (any, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	return decodeFrom(d, tok, depth)
}

// LoadJSON reads data as one JSON document the way Python's json.loads
// gives it: objects with their keys in the order written, numbers
// written without a fraction or exponent as ints (*big.Int past 64
// bits), the others as floats. Anything after the document is an error.
func LoadJSON(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	v, err := DecodeJSON(d)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("extra data after the JSON document")
	}
	return pyNumbers(v), nil
}

// pyNumbers turns json.Numbers into Python's ints and floats, in place.
func pyNumbers(v any) any {
	switch t := v.(type) {
	case json.Number:
		s := string(t)
		if !strings.ContainsAny(s, ".eE") {
			if n, err := t.Int64(); err == nil {
				return int(n)
			}
			if n, ok := new(big.Int).SetString(s, 10); ok {
				return n
			}
		}
		f, _ := t.Float64()
		return f
	case []any:
		for i := range t {
			t[i] = pyNumbers(t[i])
		}
	case map[string]any:
		for k := range t {
			t[k] = pyNumbers(t[k])
		}
	}
	return v
}
