package inventory

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/hostile"
)

// maxHostValues bounds what one host's variables may stand for, walked as
// a tree: the alias budget of internal/yaml11 (1,000,000 values), plus the
// document's own nodes (each at least half a byte of it).
func maxHostValues(src []byte) int { return 1_000_000 + 2*len(src) + 16 }

// FuzzYAML feeds arbitrary text to the YAML inventory reader and to
// everything that works on its result (host vars merged from every group,
// --list, patterns). None of it may panic, errors are ParseErrors, and no
// host's variables stand for more than the alias budget allows, however
// the document spreads its aliases over variables, hosts and groups.
func FuzzYAML(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*/*.y*ml")
	more, _ := filepath.Glob("testdata/errors/*.yml")
	for _, p := range append(seeds, more...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	bomb := hostile.YAMLBomb(4, "    ") // 59,049 values
	f.Add([]byte("all:\n  hosts:\n    h1:\n  vars:\n" + hostile.YAMLBomb(9, "    ")))
	f.Add([]byte("all:\n  vars:\n" + bomb + "    v1: *a4\n    v2: *a4\n  hosts:\n    web[1:3]:\n      v: *a4\n"))
	// Refused: 20 variables of 59,049 values each, one budget for all.
	f.Add([]byte("all:\n  hosts: {h1: }\n  vars:\n" + bomb + manyVars(20, "*a4", "    ")))
	f.Add([]byte("all:\n  children:\n    g: &g\n      vars:\n" + strings.ReplaceAll(bomb, "    ", "        ") +
		"      hosts: {h1: {x: *a4}}\n    g2: *g\n    g3:\n      <<: *g\n"))
	f.Add([]byte("all:\n  vars: &v {a: &a [1, 2], b: {<<: {c: *a}}}\n  hosts:\n    h[1:2]: *v\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		inv := New()
		if err := inv.ParseYAML("fuzz.yml", src); err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		all := inv.groups["all"].AllHosts()
		if len(all) > 50 {
			all = all[:50] // big ranges: parsing them was the test
		}
		limit := maxHostValues(src)
		for _, h := range all {
			vars, err := inv.HostVars(h.Name)
			if err != nil {
				t.Fatal(err)
			}
			if n := hostile.TreeSize(vars, limit); n > limit {
				t.Fatalf("%s: %d bytes gave a host more than %d values", h.Name, len(src), limit)
			}
		}
		if len(inv.hostOrder) <= 5000 {
			if _, err := inv.List(); err != nil {
				t.Fatal(err)
			}
		}
		_, _ = inv.Hosts("all:!web*")
	})
}

// manyVars is n variables v0..v<n-1> set to value, indented.
func manyVars(n int, value, indent string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(indent + "v" + strconv.Itoa(i) + ": " + value + "\n")
	}
	return b.String()
}
