package files

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// countStarts puts a program of prog's name first in PATH (for the
// test's scripts, which run on this machine) that notes each start and
// runs the real one; the returned function says how many starts there
// were since it was last called.
func countStarts(t *testing.T, dir, prog string) func() int {
	t.Helper()
	real, err := exec.LookPath(prog)
	if err != nil {
		t.Skip("no " + prog)
	}
	bin := filepath.Join(dir, "bin-"+prog)
	log := filepath.Join(dir, prog+".log")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	wrapper := "#!/bin/sh\necho x >>" + log + "\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, prog), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	return func() int {
		b, _ := os.ReadFile(log)
		os.Remove(log)
		return strings.Count(string(b), "x")
	}
}
