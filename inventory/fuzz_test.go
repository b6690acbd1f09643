package inventory

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzINI feeds arbitrary text to the INI reader and to everything that
// works on its result (variable merge, --list, --graph, patterns). None of
// it may panic; errors are fine. Seeds are every INI fixture.
func FuzzINI(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*/hosts")
	more, _ := filepath.Glob("testdata/errors/*.ini")
	for _, p := range append(seeds, more...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, "all:!web[0]")
		}
	}
	f.Add([]byte("[a:children]\nb\n[b]\nh[1:3] x='1' y=[1,{'a':(2,)}]\n"), "~h[12]:&a")
	f.Fuzz(func(t *testing.T, src []byte, pattern string) {
		inv := New()
		if err := inv.ParseINI("fuzz.ini", src); err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
		}
		if len(inv.hostOrder) > 5000 {
			return // big ranges: parsing them was the test
		}
		if _, err := inv.List(); err != nil {
			t.Fatal(err)
		}
		// --graph repeats a group under every parent, so its size grows
		// exponentially with diamond-shaped children (as in Ansible).
		if len(inv.groupOrder) <= 12 {
			if err := inv.Graph(&bytes.Buffer{}, "all", true); err != nil {
				t.Fatal(err)
			}
		}
		_, _ = inv.Hosts(pattern)
		for _, h := range inv.groups["all"].AllHosts() {
			vars, err := inv.HostVars(h.Name)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := JSON(vars); err != nil {
				t.Fatal(err)
			}
			_ = h.GroupNames()
		}
	})
}
