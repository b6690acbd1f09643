package pyfmt

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
)

// JSONOptions say how JSON writes a value, as Python's json.dumps
// arguments do.
type JSONOptions struct {
	// Pretty puts every item on a line of its own, indented by Indent
	// spaces a level (json.dumps's indent=, 0 included); without it the
	// output is one line with ", " and ": " separators.
	Pretty bool
	Indent int
	// ASCII escapes every non-ASCII character (ensure_ascii).
	ASCII bool
	// Ordered writes a dict's keys in insertion order (internal/pydict),
	// as json.dumps does without sort_keys; without it they are sorted.
	Ordered bool
	// ItemSep and KeySep, when not empty, replace the separators between
	// items and after keys (json.dumps's separators=).
	ItemSep, KeySep string
	// MaxLen, when not zero, fails an output that grows past it.
	MaxLen int
	// Convert, when set, turns a value of a type JSON does not know into
	// one it does, or says why it cannot.
	Convert func(v any) (any, error)
}

// JSON writes v as Python's json.dumps(v, sort_keys=True, ...) does (or
// with insertion order, see Ordered): keys sorted, floats as Python prints them, Infinity and NaN as Python's
// literals. It knows nil, bool, int, *big.Int, float64, string, []string,
// []any and map[string]any.
func JSON(v any, o JSONOptions) (string, error) {
	var b strings.Builder
	if err := o.write(&b, v, 0); err != nil {
		return "", err
	}
	return b.String(), nil
}

func (o JSONOptions) write(b *strings.Builder, v any, depth int) error {
	if o.MaxLen > 0 && b.Len() > o.MaxLen {
		return fmt.Errorf("JSON output too large")
	}
	open := func(c byte) { b.WriteByte(c) }
	itemSep, keySep := o.ItemSep, o.KeySep
	if itemSep == "" {
		itemSep = ", "
		if o.Pretty {
			itemSep = ","
		}
	}
	if keySep == "" {
		keySep = ": "
	}
	sep := func(i int) {
		switch {
		case !o.Pretty && i > 0:
			b.WriteString(itemSep)
		case o.Pretty:
			if i > 0 {
				b.WriteString(itemSep)
			}
			b.WriteString("\n" + strings.Repeat(" ", o.Indent*(depth+1)))
		}
	}
	end := func(c byte) {
		if o.Pretty {
			b.WriteString("\n" + strings.Repeat(" ", o.Indent*depth))
		}
		b.WriteByte(c)
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case *big.Int:
		b.WriteString(x.String())
	case float64:
		switch {
		case math.IsInf(x, 1):
			b.WriteString("Infinity")
		case math.IsInf(x, -1):
			b.WriteString("-Infinity")
		case math.IsNaN(x):
			b.WriteString("NaN")
		default:
			b.WriteString(Float(x))
		}
	case string:
		b.WriteString(JSONQuote(x, o.ASCII))
	case []string:
		l := make([]any, len(x))
		for i, s := range x {
			l[i] = s
		}
		return o.write(b, l, depth)
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return nil
		}
		open('[')
		for i, e := range x {
			sep(i)
			if err := o.write(b, e, depth+1); err != nil {
				return err
			}
		}
		end(']')
	case map[string]any:
		if len(x) == 0 {
			b.WriteString("{}")
			return nil
		}
		var keys []string
		if o.Ordered {
			keys = pydict.Keys(x)
		} else {
			keys = make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
		}
		open('{')
		for i, k := range keys {
			sep(i)
			b.WriteString(JSONQuote(k, o.ASCII) + keySep)
			if err := o.write(b, x[k], depth+1); err != nil {
				return err
			}
		}
		end('}')
	default:
		if o.Convert == nil {
			return fmt.Errorf("cannot encode %T as JSON", v)
		}
		c, err := o.Convert(v)
		if err != nil {
			return err
		}
		return o.write(b, c, depth)
	}
	return nil
}
