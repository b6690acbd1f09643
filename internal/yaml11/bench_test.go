package yaml11

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// BenchmarkValueDicts converts 5,000 entries of two unsorted dicts each:
// the cost of recording every dict's key order (internal/pydict).
func BenchmarkValueDicts(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&sb, "k%d: {zeta: %d, alpha: x, mid: [1, 2], beta: {q: 1, a: 2}}\n", i, i)
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(sb.String()), &n); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Value(&n); err != nil {
			b.Fatal(err)
		}
	}
}
