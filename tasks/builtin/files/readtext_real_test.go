package files

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// ReadText's real path is readlink -f's, whether the path is a link (one
// program) or not (its directory's physical path, no program): through a
// linked directory, a link to a link, a dangling link, a missing file in
// a linked directory, a missing directory, and . and .. in the path.
func TestReadTextRealPath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "real", "f"), []byte("x\n"), 0o644))
	must(os.Symlink("real", filepath.Join(dir, "ldir")))
	must(os.Symlink("ldir/f", filepath.Join(dir, "lf")))
	must(os.Symlink("lf", filepath.Join(dir, "llf")))
	must(os.Symlink("nowhere", filepath.Join(dir, "dangling")))
	for _, p := range []string{
		"ldir/f", "ldir/new", "lf", "llf", "dangling", "ldir/sub/../f", "ldir/./f", "nodir/f", "real/f",
	} {
		path := filepath.Join(dir, p)
		if strings.Contains(p, "..") || strings.Contains(p, "./") {
			path = dir + "/" + p // kept as written: the host resolves it
		}
		f, fail, err := shared.ReadText(context.Background(), env, path, shared.FileAttrs{})
		if err != nil || fail != nil {
			t.Fatalf("%s: %v %+v", p, err, fail)
		}
		want := path // ReadText's own fallback when readlink -f fails
		if out, err := exec.Command("readlink", "-f", "--", path).Output(); err == nil {
			want = strings.TrimSuffix(string(out), "\n")
		}
		if f.Real != want {
			t.Errorf("%s: real %q, want readlink -f's %q", p, f.Real, want)
		}
	}
}

// ReadText gives a file's bytes exactly: up to 1024 bytes read by the
// shell itself (no cat started), larger ones and those the shell's read
// cannot give back (a NUL byte) by cat; lines with backslashes, carriage
// returns, blanks at either end, no final newline, and empty ones.
func TestReadTextContentExact(t *testing.T) {
	dir := t.TempDir()
	cats := countStarts(t, dir, "cat")
	env, _ := modtest.TestEnv(t, dir, nil)
	cases := []struct {
		name, content string
		cat           bool
	}{
		{"empty", "", false},
		{"plain", "a=1\nb=2\n", false},
		{"nofinal", "a=1\n  b = 2  ", false},
		{"escapes", "x\\ny \\\\ \\t\r\n\t tab\n\n\n", false},
		{"percent", "%s %d %%\n-n\n--content--\n", false},
		{"at1024", strings.Repeat("0123456789abcde\n", 64), false},
		{"at1025", strings.Repeat("0123456789abcde\n", 64) + "x", true},
		{"nul", "a\x00b\n", true},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		cats()
		f, fail, err := shared.ReadText(context.Background(), env, p, shared.FileAttrs{})
		if err != nil || fail != nil {
			t.Fatalf("%s: %v %+v", c.name, err, fail)
		}
		if string(f.Content) != c.content || !f.Exists {
			t.Errorf("%s: content %q, want %q", c.name, f.Content, c.content)
		}
		if cat := cats() > 0; cat != c.cat {
			t.Errorf("%s: cat started %v, want %v", c.name, cat, c.cat)
		}
	}
}
