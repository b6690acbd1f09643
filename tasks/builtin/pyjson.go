package builtin

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/tender-sh/tender/internal/pyfmt"
)

// pyJSON renders v as Python's json.dumps does by default (", " and ": "
// separators, non-ASCII escaped as \uXXXX), for copy's content given as
// a list or a dict. Mapping keys are sorted: their YAML order is not kept
// in Args.
func pyJSON(v any) string {
	var b strings.Builder
	writePyJSON(&b, v)
	return b.String()
}

func writePyJSON(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case string:
		b.WriteString(pyfmt.JSONQuote(x, true))
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writePyJSON(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pyfmt.JSONQuote(k, true) + ": ")
			writePyJSON(b, x[k])
		}
		b.WriteByte('}')
	case float64:
		switch {
		case math.IsInf(x, 1):
			b.WriteString("Infinity")
		case math.IsInf(x, -1):
			b.WriteString("-Infinity")
		case math.IsNaN(x):
			b.WriteString("NaN")
		default:
			b.WriteString(pyfmt.Float(x))
		}
	default:
		fmt.Fprint(b, x)
	}
}
