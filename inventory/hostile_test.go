package inventory

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/hostile"
)

// A "billion laughs" document in a YAML inventory or in group_vars is
// refused with its file, line and alias, at once and in bounded memory
// (it used to take the controller to gigabytes and an out-of-memory crash).
func TestAliasBombBounded(t *testing.T) {
	dir := t.TempDir()
	inv := "all:\n  hosts:\n    h1:\n  vars:\n" + hostile.YAMLBomb(9, "    ")
	gv := hostile.YAMLBomb(9, "")
	if err := os.WriteFile(filepath.Join(dir, "inv.yml"), []byte(inv), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "gv", "group_vars"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gv", "hosts"), []byte("h1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gv", "group_vars", "all.yml"), []byte(gv), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, src := range []string{filepath.Join(dir, "inv.yml"), filepath.Join(dir, "gv", "hosts")} {
		inv, err := Load(src)
		if err == nil {
			_, err = inv.HostVars("h1")
		}
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line == 0 || !strings.Contains(pe.Msg, "aliases expand to more than") {
			t.Fatalf("%s: err = %v, want the alias budget's error at a line", src, err)
		}
	}
	runtime.ReadMemStats(&after)
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 64<<20 {
		t.Fatalf("refusing the documents allocated %d MiB", grown>>20)
	}
}

// The alias budget is the document's, not each variable's: variables (or
// hosts of a range) that each alias one anchor below the budget are
// refused once together they cross it, rather than each costing a copy
// when host vars are merged.
func TestAliasBombSplitAcrossVars(t *testing.T) {
	dir := t.TempDir()
	var groupVars, hostVars strings.Builder
	groupVars.WriteString("all:\n  hosts:\n    h1:\n  vars:\n" + hostile.YAMLBomb(4, "    "))
	hostVars.WriteString("all:\n  vars:\n" + hostile.YAMLBomb(4, "    ") + "  hosts:\n    web[1:40]:\n      v: *a4\n")
	for i := range 40 {
		groupVars.WriteString("    v" + strconv.Itoa(i) + ": *a4\n")
	}
	for name, src := range map[string]string{"group.yml": groupVars.String(), "range.yml": hostVars.String()} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line == 0 || !strings.Contains(pe.Msg, "aliases expand to more than") {
			t.Errorf("%s: err = %v, want the alias budget's error at a line", name, err)
		}
	}
}
