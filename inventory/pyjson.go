package inventory

import (
	"fmt"

	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/yaml11"
)

// JSON encodes v exactly as ansible-inventory prints its output (Python's
// json.dumps with sort_keys=True, indent=4, ensure_ascii=False): keys
// sorted, four-space indent, floats as Python writes them (1000.0, 1e-05),
// `!unsafe` strings as {"__ansible_unsafe": "..."}. It accepts the values
// this package produces: nil, bool, int, *big.Int, float64, string,
// yaml11.Unsafe, []any, []string and map[string]any.
func JSON(v any) ([]byte, error) {
	s, err := pyfmt.JSON(v, pyfmt.JSONOptions{Pretty: true, Indent: 4, Convert: func(v any) (any, error) {
		if u, ok := v.(yaml11.Unsafe); ok {
			return map[string]any{"__ansible_unsafe": string(u)}, nil
		}
		return nil, fmt.Errorf("cannot encode %T as JSON", v)
	}})
	if err != nil {
		return nil, fmt.Errorf("inventory: %w", err)
	}
	return []byte(s), nil
}

// toInt converts a value as Python's int() does for ansible_group_priority;
// an integer past 64 bits is refused (tender orders by Go's ints).
func toInt(v any) (int, error) { return pyfmt.Int(v) }
