package modtest

import (
	"strings"
	"testing"
)

// ShFunc is the text of the shell function name as a module's script
// defines it (from "name() {" at the start of a line to the first "}"
// alone on a line), for a test that runs one function on its own.
func ShFunc(t testing.TB, script, name string) string {
	t.Helper()
	i := strings.Index(script, "\n"+name+"() {")
	if i < 0 {
		t.Fatalf("no %s in the script", name)
	}
	j := strings.Index(script[i:], "\n}\n")
	if j < 0 {
		t.Fatalf("%s does not end with a } line", name)
	}
	return script[i : i+j+3]
}
