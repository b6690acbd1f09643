package shared

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// _t_tmpd makes its first directory at $__tender_w (mode 700, left for
// the persistent shell to remove) when that path is free, and the others,
// or all where there is no such path or something is there already, with
// mktemp, each removed when the script exits.
func TestTmpdWorkPathThenMktemp(t *testing.T) {
	for _, c := range []struct {
		name     string
		work     string // "" unset, "free" a path where nothing is, "taken" an existing directory
		fromWork bool
	}{{"unset", "", false}, {"free", "free", true}, {"taken", "taken", false}} {
		dir := t.TempDir()
		env := append(os.Environ(), "TMPDIR="+dir)
		w := filepath.Join(dir, "w1")
		switch c.work {
		case "free":
			env = append(env, "__tender_w="+w)
		case "taken":
			if err := os.Mkdir(w, 0o755); err != nil {
				t.Fatal(err)
			}
			env = append(env, "__tender_w="+w)
		}
		script := TmpdFuncs + `_t_tmpd a; _t_tmpd b
[ -d "$a" ] && [ -d "$b" ] && [ "$a" != "$b" ] || exit 3
: >"$a/x"; : >"$b/x"
printf '%s\n%s\n' "$a" "$b"
`
		cmd := exec.Command("sh", "-c", script)
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := strings.Fields(string(out))
		if len(got) != 2 {
			t.Fatalf("%s: %q", c.name, out)
		}
		if (got[0] == w) != c.fromWork {
			t.Errorf("%s: first directory %s, work path %s", c.name, got[0], w)
		}
		for i, d := range got {
			_, err := os.Stat(d)
			kept := i == 0 && c.fromWork
			if kept != (err == nil) && d != w {
				t.Errorf("%s: %s there after exit: %v", c.name, d, err == nil)
			}
		}
		if c.fromWork {
			if fi, err := os.Stat(w); err != nil || fi.Mode().Perm() != 0o700 {
				t.Errorf("%s: work directory %v (%v)", c.name, fi, err)
			}
		}
	}
}
