package playbooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorPosition: an error at a task quotes the line before and the
// task's line with a caret under the column, as Ansible's does; k=v on
// the line before moves the caret to its '='; a blank line gives way to
// the line above; a vaulted file is not quoted.
func TestErrorPosition(t *testing.T) {
	dir := t.TempDir()
	pb := filepath.Join(dir, "pb.yml")
	os.WriteFile(pb, []byte("- hosts: all\n  tasks:\n    - debug: msg=x\n\n\n    - name: two\n      command: echo a=b\n"), 0o644)
	got := (Pos{File: pb, Line: 3, Col: 7}).Quote()
	want := "\n\nThe error appears to be in '" + pb + "': line 3, column 7, but may\n" +
		"be elsewhere in the file depending on the exact syntax problem.\n\n" +
		"The offending line appears to be:\n\n  tasks:\n    - debug: msg=x\n      ^ here\n"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := (Pos{File: pb, Line: 5, Col: 7}).Quote(); !strings.Contains(got, "line 5, column 7") ||
		!strings.HasSuffix(got, "  tasks:\n    - debug: msg=x\n      ^ here\n") {
		t.Errorf("blank line: %q", got)
	}
	kv := filepath.Join(dir, "kv.yml")
	os.WriteFile(kv, []byte("- debug: msg=x\n  when: y\n"), 0o644)
	if got := (Pos{File: kv, Line: 2, Col: 3}).Quote(); !strings.Contains(got, "line 1, column 13") ||
		!strings.HasSuffix(got, "- debug: msg=x\n            ^ here\n\n") {
		t.Errorf("k=v before: %q", got)
	}
	vaulted := filepath.Join(dir, "v.yml")
	os.WriteFile(vaulted, []byte("$ANSIBLE_VAULT;1.1;AES256\n6162\n"), 0o644)
	if got := (Pos{File: vaulted, Line: 2, Col: 1}).Quote(); strings.Contains(got, "offending") {
		t.Errorf("vaulted: %q", got)
	}
}
