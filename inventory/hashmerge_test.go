package inventory

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestHashMerge: with Options.HashMerge a dict set by two sources, and by
// a group and the host, is merged; without it the later one replaces it.
func TestHashMerge(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.yml")
	two := filepath.Join(dir, "two.yml")
	for p, src := range map[string]string{
		one: "all:\n  hosts:\n    h1:\n      d: {a: 1, b: 1}\n  vars:\n    g: {a: 1, b: 1}\n",
		two: "all:\n  hosts:\n    h1:\n      d: {a: 2}\n  vars:\n    g: {a: 2}\n",
	} {
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for merge, want := range map[bool]map[string]any{
		true:  {"a": 2, "b": 1},
		false: {"a": 2},
	} {
		inv, err := LoadWith(Options{HashMerge: merge}, one, two)
		if err != nil {
			t.Fatal(err)
		}
		vars, err := inv.HostVars("h1")
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"d", "g"} {
			if !reflect.DeepEqual(vars[k], want) {
				t.Errorf("merge=%v: %s = %v, want %v", merge, k, vars[k], want)
			}
		}
	}
}
