package provision

import (
	"maps"
	"math/big"

	"github.com/tender-sh/tender/playbooks/expr"
)

// customStats records what set_stats returned on host: under the host's
// name when per_host, else under "_run"; with aggregate, a number or list
// is added to what was there, a mapping merged into it, a value of
// another type left as it was (as Ansible does); without it, replaced.
func (rn *run) customStats(host string, st map[string]any) {
	data, _ := st["data"].(map[string]any)
	key := "_run"
	if per, _ := st["per_host"].(bool); per {
		key = host
	}
	aggregate, _ := st["aggregate"].(bool)
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.recap.Custom == nil {
		rn.recap.Custom = map[string]map[string]any{}
	}
	m := rn.recap.Custom[key]
	if m == nil {
		m = map[string]any{}
		rn.recap.Custom[key] = m
	}
	for k, v := range data {
		old, ok := m[k]
		if !aggregate || !ok {
			m[k] = v
			continue
		}
		m[k] = addStat(old, v)
	}
}

// addStat aggregates one custom stat.
func addStat(old, v any) any {
	switch o := old.(type) {
	case int, *big.Int:
		switch v.(type) {
		case int, *big.Int:
			// Python's ints: exact, past 64 bits too
			if sum, err := expr.Arith("+", o, v); err == nil {
				return sum
			}
		}
	case float64:
		if n, ok := v.(float64); ok {
			return o + n
		}
	case string:
		if n, ok := v.(string); ok {
			return o + n
		}
	case []any:
		if n, ok := v.([]any); ok {
			return append(append([]any{}, o...), n...)
		}
	case map[string]any:
		if n, ok := v.(map[string]any); ok {
			out := maps.Clone(o)
			for k, x := range n {
				if inner, ok := out[k].(map[string]any); ok {
					if nx, ok := x.(map[string]any); ok {
						out[k] = addStat(inner, nx)
						continue
					}
				}
				out[k] = x
			}
			return out
		}
	}
	return old
}
