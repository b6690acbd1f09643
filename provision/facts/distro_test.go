package facts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fixtureOutput renders what the fact script would print on a host whose
// /etc holds the fixture's files.
func fixtureOutput(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("v|system|Linux\nv|machine|x86_64\nv|nodename|host1\n")
	entries, err := os.ReadDir(filepath.Join(root, "etc"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(root, "etc", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
			b.WriteString("f|/etc/" + e.Name() + "|" + line + "\n")
		}
	}
	return b.String()
}

// TestDistributionsAgainstAnsible compares the distribution facts with the
// ones ansible-core computed from the same files (testdata/gen.py ran
// Ansible's own fact code on each fixture root; testdata/distros.json).
func TestDistributionsAgainstAnsible(t *testing.T) {
	data, err := os.ReadFile("testdata/distros.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]map[string]any
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) < 10 {
		t.Fatalf("only %d distributions recorded", len(want))
	}
	for name, w := range want {
		t.Run(name, func(t *testing.T) {
			f, err := Parse([]byte(fixtureOutput(t, filepath.Join("testdata", "distros", name))))
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]any{}
			for k := range w {
				got[k] = f[k]
			}
			if !reflect.DeepEqual(got, w) {
				t.Errorf("got  %v\nwant %v", got, w)
			}
		})
	}
}
