package inventory

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDifferential compares tender with ansible-inventory on the random
// inventories testdata/difftest.sh writes and records (it sets
// INVENTORY_DIFF_DIR); skipped otherwise. An inventory Ansible failed to
// parse (it warns "Unable to parse") must fail in tender too.
func TestDifferential(t *testing.T) {
	root := os.Getenv("INVENTORY_DIFF_DIR")
	if root == "" {
		t.Skip("run testdata/difftest.sh")
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "*", "*"))
	n := 0
	for _, d := range dirs {
		src := filepath.Join(d, "hosts")
		if _, err := os.Stat(src); err != nil {
			src = filepath.Join(d, "inv.yml")
		}
		if _, err := os.Stat(filepath.Join(d, "list.json")); err != nil {
			continue
		}
		stderr, _ := os.ReadFile(filepath.Join(d, "list.err"))
		inv, err := Load(src)
		if bytes.Contains(stderr, []byte("Unable to parse")) {
			if err == nil {
				t.Errorf("%s: ansible could not parse it, tender could", d)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", d, err)
			continue
		}
		n++
		list, err := inv.List()
		if err != nil {
			t.Fatal(err)
		}
		compareJSON(t, filepath.Join(d, "list.json"), list)
		var buf bytes.Buffer
		if err := inv.Graph(&buf, "all", true); err != nil {
			t.Fatal(err)
		}
		compareText(t, filepath.Join(d, "graph.txt"), buf.String())
		pat, _ := os.ReadFile(filepath.Join(d, "pattern.txt"))
		hs, _ := inv.Hosts("all:!g1")
		if got, w := names(hs), strings.Join(strings.Fields(string(pat)), " "); got != w {
			t.Errorf("%s: all:!g1\n got %s\nwant %s", d, got, w)
		}
	}
	t.Logf("%d inventories compared", n)
}
