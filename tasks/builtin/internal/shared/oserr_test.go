package shared

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestOpenErr runs _t_open_err and _t_stat_err on this machine and checks
// that each error comes back as the text OSError numbers.
func TestOpenErr(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ fn, path, want, oserr string }{
		{"_t_open_err", file, "", ""},
		{"_t_open_err", dir, "", ""},
		{"_t_open_err", filepath.Join(dir, "missing"), ENOENT, "[Errno 2] No such file or directory: '" + dir + "/missing'"},
		{"_t_open_err", filepath.Join(file, "x"), "Not a directory", "[Errno 20] Not a directory: '" + file + "/x'"},
		{"_t_stat_err", filepath.Join(dir, "missing"), ENOENT, ""},
		{"_t_stat_err", filepath.Join(file, "x"), "Not a directory", ""},
		{"_t_stat_err", file, "", ""},
	} {
		out, err := exec.Command("sh", "-c", ShFuncs+c.fn+` "$1"`, "sh", c.path).Output()
		if err != nil {
			t.Fatal(err)
		}
		got := string(out)
		if got != "" {
			got = got[:len(got)-1]
		}
		if got != c.want {
			t.Errorf("%s %s = %q, want %q", c.fn, c.path, got, c.want)
		}
		if c.oserr != "" && OSError(got, c.path) != c.oserr {
			t.Errorf("OSError = %q, want %q", OSError(got, c.path), c.oserr)
		}
	}
}
