package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// A small content is compared with the destination's bytes by the shell
// itself: a file that holds it is left alone with no sha1sum started, and
// one that does not (same size and other bytes, another size, no final
// newline where the content has one) is replaced, its result the same as
// by checksum; a link at dest, or a content with a NUL byte, is still
// compared by sha1sum. A small content is written from the script's own
// value, byte for byte.
func TestCopySmallContentCompared(t *testing.T) {
	dir := t.TempDir()
	sums := countStarts(t, dir, "sha1sum")
	env, _ := modtest.TestEnv(t, dir, nil)
	content := "a \\n 'b' %s\r\n\tc\n"
	cases := []struct {
		name, before, content string
		link, absent          bool
		changed               bool
		sums                  int // sha1sum started: for cur, for the staged copy
	}{
		{"same", content, content, false, false, false, 0},
		{"samesize", strings.Replace(content, "c", "d", 1), content, false, false, true, 1},
		{"longer", content + "x", content, false, false, true, 1},
		{"nofinal", strings.TrimSuffix(content, "\n") + " ", content, false, false, true, 1},
		{"link", content, content, true, false, false, 1},
		{"nul", "a\x00b\n", "a\x00b\n", false, false, false, 1},
		{"empty", "", "", false, false, false, 0},
		// written from the script's own value (no stdin): exact bytes
		{"new", "", "-n %d\\c \\0101 'x\"\n\n", false, true, true, 1},
		{"newempty", "", "", false, true, true, 1},
	}
	for _, c := range cases {
		dest := filepath.Join(dir, c.name)
		target := dest
		if c.link {
			target = dest + ".target"
			if err := os.Symlink(filepath.Base(target), dest); err != nil {
				t.Fatal(err)
			}
		}
		if !c.absent {
			if err := os.WriteFile(target, []byte(c.before), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		sums()
		res := modtest.RunMod(t, env, "copy", tasks.Args{"content": c.content, "dest": dest, "mode": "0644"})
		if res.Failed || res.Changed != c.changed || modtest.ReadFile(t, dest) != c.content {
			t.Errorf("%s: %+v, dest %q", c.name, res, modtest.ReadFile(t, dest))
		}
		if n := sums(); n != c.sums {
			t.Errorf("%s: sha1sum started %d times, want %d", c.name, n, c.sums)
		}
		if !c.link && (res.Data["size"] != len(c.content) || res.Data["mode"] != "0644") {
			t.Errorf("%s: data %+v", c.name, res.Data)
		}
	}
}
