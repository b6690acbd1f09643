package expr

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestCSVFileMissingWarns: a file not found is first a warning, as
// Ansible's search for it gives, then Python's error for the path None
// Ansible goes on to open (cases.yaml records the error text).
func TestCSVFileMissingWarns(t *testing.T) {
	var warned []string
	scope := NewVars(map[string]any{})
	scope.Env = &Env{BaseDir: t.TempDir(), Warn: func(m string) { warned = append(warned, m) }}
	_, err := evalSrc(`lookup('csvfile', 'k', file='nope.csv')`, scope)
	if err == nil || len(warned) != 1 || warned[0] != "Unable to find 'nope.csv' in expected paths (use -vvvvv to see paths)" {
		t.Fatalf("err %v, warnings %q", err, warned)
	}
}

// TestCSVFileOptionsCarryOver: options written in a term stay for the
// terms after it, TAB turned into a tab once and for all, as the
// plugin's options dict does in Ansible.
func TestCSVFileOptionsCarryOver(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.csv"), []byte("k,v1,w1\nj,v2,w2\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "t.csv"), []byte("k\tt1\n"), 0o644)
	got, err := RunLookup(&Env{BaseDir: dir}, "csvfile", []any{"k file=a.csv delimiter=, col=2", "j", "k file=t.csv delimiter=TAB col=1", "k"}, nil)
	if err != nil || fmt.Sprint(got) != "[w1 w2 t1 t1]" {
		t.Fatalf("got %v, %v", got, err)
	}
}

func TestPyOSError(t *testing.T) {
	for _, c := range []struct {
		err  error
		path string
		want string
	}{
		{&fs.PathError{Op: "read", Path: "/d", Err: syscall.EISDIR}, "/d", "[Errno 21] Is a directory: b'/d'"},
		{&fs.PathError{Op: "open", Path: "x", Err: syscall.EACCES}, "it's", `[Errno 13] Permission denied: b"it's"`},
		{fs.ErrNotExist, "é\n", `[Errno 2] No such file or directory: b'\xc3\xa9\n'`},
		{errors.New("odd"), "p", "odd"},
	} {
		if got := pyOSError(c.err, c.path); got != c.want {
			t.Errorf("pyOSError(%v) = %s, want %s", c.err, got, c.want)
		}
	}
}
