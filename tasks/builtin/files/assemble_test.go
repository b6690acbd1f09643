package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

func TestAssemble(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cc := modtest.TestEnv(t, dir, nil)
	frags := filepath.Join(dir, "frags; x")
	os.Mkdir(frags, 0o755)
	for n, c := range map[string]string{"b": "2", "a": "1\n", ".h": "h\n", "c d": "3\n"} {
		os.WriteFile(filepath.Join(frags, n), []byte(c), 0o644)
	}
	os.Mkdir(filepath.Join(frags, "subdir"), 0o755)
	dest := filepath.Join(dir, "out")
	args := tasks.Args{"src": frags, "dest": dest, "delimiter": `--\x41`}
	res := modtest.RunMod(t, env, "assemble", args)
	if !res.Changed || modtest.ReadFile(t, dest) != "h\n--A\n1\n--A\n2\n--A\n3\n" || res.Data["md5sum"] == nil {
		t.Fatalf("first: %+v %q", res, modtest.ReadFile(t, dest))
	}
	cc.Runs = 0
	res = modtest.RunMod(t, env, "assemble", args)
	if res.Changed || cc.Runs != 1 {
		t.Fatalf("again: %+v runs=%d", res, cc.Runs)
	}
	res = modtest.RunMod(t, env, "assemble", tasks.Args{"src": frags, "dest": dest, "regexp": `^[ab]$`, "mode": "0600"})
	if !res.Changed || modtest.ReadFile(t, dest) != "1\n2" || mode(t, dest) != 0o600 {
		t.Fatalf("regexp: %+v %q", res, modtest.ReadFile(t, dest))
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".tender-*")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
	// Python's re: a lookbehind keeps the names with a character after an
	// "a" or a "c" (Python's re.search, not anchored), "c d" only.
	res = modtest.RunMod(t, env, "assemble", tasks.Args{"src": frags, "dest": dest, "regexp": `(?<=[ac]).`})
	if !res.Changed || modtest.ReadFile(t, dest) != "3\n" {
		t.Fatalf("lookbehind: %+v %q", res, modtest.ReadFile(t, dest))
	}
	res = modtest.RunMod(t, env, "assemble", tasks.Args{"src": frags, "dest": dest, "regexp": `(?<=a+)`})
	if !res.Failed || !strings.Contains(res.Msg, "look-behind requires fixed-width pattern") {
		t.Fatalf("a lookbehind Python refuses: %+v", res)
	}
}

// TestEscapeDecode: assemble's delimiter is decoded as Python 3.11's
// codecs.escape_decode decodes it (answers recorded from it): bytes, so
// \u is no escape; a backslash before a newline continues the line.
// escape_decode fails on a bad \x and on a trailing backslash, which
// tender keeps as written.
func TestEscapeDecode(t *testing.T) {
	for in, want := range map[string]string{
		`--\x41`: "--A", `a\101b`: "aAb", `\u00e9`: `\u00e9`, "x\\\nY": "xY", `\q\n\t`: "\\q\n\t", `end\`: `end\`, `\777`: "\xff",
	} {
		if got := string(escapeDecode(in)); got != want {
			t.Errorf("escapeDecode(%q) = %q, want %q", in, got, want)
		}
	}
}
