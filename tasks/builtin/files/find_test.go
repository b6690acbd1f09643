package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

func TestFind(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cc := modtest.TestEnv(t, dir, nil)
	for p, c := range map[string]string{"a.log": "error here\n", "b.txt": "fine\n", ".h.log": "x\n", "sub/c.log": "error\n", "sub/deep/d.log": "ok\n"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644)
	}
	names := func(res tasks.Result) []string {
		var out []string
		for _, f := range res.Data["files"].([]any) {
			rel, _ := filepath.Rel(dir, f.(map[string]any)["path"].(string))
			out = append(out, rel)
		}
		return out
	}
	for _, c := range []struct {
		args tasks.Args
		want string
		runs int
	}{
		{tasks.Args{"patterns": "*.log"}, "a.log", 1},
		{tasks.Args{"patterns": "*.log", "hidden": true}, ".h.log a.log", 1},
		{tasks.Args{"patterns": "[!a]*"}, "b.txt", 1}, // fnmatch's negation, not a literal "!"
		{tasks.Args{"patterns": "*.log", "recurse": true}, "a.log sub/c.log sub/deep/d.log", 1},
		{tasks.Args{"patterns": "*.log", "recurse": true, "depth": 2}, "a.log sub/c.log", 1},
		{tasks.Args{"patterns": `^[ab]\..*$`, "use_regex": true, "excludes": "b.*", "recurse": true}, "a.log", 1},
		{tasks.Args{"recurse": true, "contains": "error"}, "a.log sub/c.log", 2},
		{tasks.Args{"file_type": "directory", "recurse": true}, "sub sub/deep", 1},
		{tasks.Args{"size": "7", "recurse": true}, "a.log", 1},
		{tasks.Args{"age": "1d"}, "", 1},
	} {
		c.args["paths"] = dir
		cc.Runs = 0
		res := modtest.RunMod(t, env, "find", c.args)
		got := strings.Join(names(res), " ")
		if c.want != "" || got != "" {
			// compare as sets: the directory's own order is the host's
			g, w := strings.Fields(got), strings.Fields(c.want)
			if len(g) != len(w) || res.Data["matched"] != len(w) {
				t.Errorf("%v: %q, want %q", c.args, got, c.want)
				continue
			}
			for _, x := range w {
				if !strings.Contains(" "+got+" ", " "+x+" ") {
					t.Errorf("%v: %q, want %q", c.args, got, c.want)
				}
			}
		}
		if cc.Runs != c.runs {
			t.Errorf("%v: %d round trips, want %d", c.args, cc.Runs, c.runs)
		}
	}
	res := modtest.RunMod(t, env, "find", tasks.Args{"paths": []any{dir + "/a.log", dir}, "get_checksum": true})
	if res.Msg != "Not all paths examined, check warnings for details" || len(res.Warnings) != 1 {
		t.Fatalf("not a dir: %+v", res)
	}
	if f := res.Data["files"].([]any); len(f) != 2 || f[0].(map[string]any)["checksum"] == nil {
		t.Fatalf("checksum: %+v", f)
	}
}
