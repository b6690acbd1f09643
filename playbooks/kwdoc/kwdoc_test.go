package kwdoc

import (
	"slices"
	"strings"
	"testing"
)

// TestKeywords: every keyword ansible-core documents is described, and
// carries its recorded facts.
func TestKeywords(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 60 {
		t.Errorf("%d keywords documented", len(all))
	}
	b := all["become"]
	if applies, _ := b.Facts["applies_to"].([]any); !slices.Contains(applies, any("Task")) || b.Facts["type"] != "bool" {
		t.Errorf("become's facts: %v", b.Facts)
	}
	for _, n := range []string{"when", "loop", "hosts", "block", "notify"} {
		if strings.TrimSpace(all[n].Description) == "" {
			t.Errorf("%s is not described", n)
		}
	}
	if names := Names(); !slices.IsSorted(names) || len(names) != len(all) {
		t.Errorf("Names: %v", names)
	}
}
