package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadErrorQuotesLine: a playbook that does not load is reported as
// ansible-playbook reports it (recorded from 2.14 for a task file that
// holds a scalar): where the error is, then the offending line with a
// caret under the column, exit 4.
func TestLoadErrorQuotesLine(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "pb.yml"), []byte("- hosts: localhost\n  gather_facts: no\n  tasks:\n  - import_tasks: bad.yml\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.yml"), []byte("intentional syntax error\n"), 0o644)
	t.Chdir(dir)
	code, _, errOut := runCLI(t, "play", "pb.yml")
	want := "\n\nThe error appears to be in '" + filepath.Join(dir, "bad.yml") + "': line 1, column 1, but may\n" +
		"be elsewhere in the file depending on the exact syntax problem.\n\n" +
		"The offending line appears to be:\n\n\nintentional syntax error\n^ here"
	if code != 4 || !strings.Contains(errOut, "bad.yml:1:1: ") || !strings.Contains(errOut, want) {
		t.Errorf("exit %d (want 4), stderr lacks %q:\n%s", code, want, errOut)
	}
}
