package modtest

import (
	"path/filepath"
	"runtime"
)

// Path returns rel, a path relative to tasks/builtin (testdata/..., or
// ../../e2e/...), as a path that holds whichever family's directory a
// test runs in.
func Path(rel string) string {
	_, me, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(me), "..", "..", rel)
}
