package yaml11

import (
	"testing"

	"github.com/tender-sh/tender/internal/hostile"
)

// FuzzVars feeds arbitrary YAML to Vars, as vars files, group_vars and
// -e @FILE are read: it may fail, never panic, and what it returns stays
// bounded when walked as a tree, as every consumer walks it (the alias
// budget, plus the document's own nodes).
func FuzzVars(f *testing.F) {
	f.Add([]byte(hostile.YAMLBomb(9, ""))) // refused
	f.Add([]byte(hostile.YAMLBomb(4, ""))) // 59,049 values: loads
	f.Add([]byte(hostile.YAMLBomb(4, "") + "v1: *a4\nv2: *a4\nv3: {<<: {x: *a4}}\n"))
	f.Add([]byte(mergeChain(20, 20)))
	f.Add([]byte("a: &a {x: 1}\nb: {<<: [*a, {y: 2}], z: *a}\nc: [*a, *a]\n"))
	f.Add([]byte("a: &a [*a]\nb: &b {<<: *b}\n"))
	f.Add([]byte("x: !unsafe '{{ y }}'\nn: 0755\nb: yes\nf: 1_0.5\nt: 1:30\n? [k]\n: v\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Vars(data, "fuzz.yml")
		if err != nil {
			return
		}
		limit := maxAliasExpansion + 2*len(data) + 16
		if n := hostile.TreeSize(m, limit); n > limit {
			t.Fatalf("%d bytes loaded as more than %d values", len(data), limit)
		}
	})
}
