package files

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestTemplateBlocksAgainstAnsible: trim_blocks, lstrip_blocks and a
// #jinja2: header shape the output as Ansible's template module does
// (testdata/trimblocks/out, recorded by testdata/trimblocks/gen.sh).
func TestTemplateBlocksAgainstAnsible(t *testing.T) {
	t.Parallel()
	src, _ := filepath.Abs("testdata/trimblocks/templates")
	env, _ := modtest.TestEnv(t, src, nil)
	se := tasks.ScopeEnv(nil, expr.NewVars(map[string]any{}))
	env.Render, env.RenderFile = se.Render, se.RenderFile
	dir := t.TempDir()
	for _, c := range []struct {
		src, out     string
		trim, lstrip bool
	}{
		{"a.j2", "default.txt", true, false}, {"a.j2", "notrim.txt", false, false},
		{"a.j2", "lstrip.txt", true, true}, {"a.j2", "both.txt", false, true},
		{"h.j2", "header.txt", true, false}, {"m.j2", "markers.txt", true, false},
	} {
		want, err := os.ReadFile(filepath.Join("testdata/trimblocks/out", c.out))
		if err != nil {
			t.Fatal(err)
		}
		dest := filepath.Join(dir, c.out)
		res := modtest.RunMod(t, env, "template", tasks.Args{"src": filepath.Join(src, c.src), "dest": dest,
			"trim_blocks": c.trim, "lstrip_blocks": c.lstrip})
		if got := modtest.ReadFile(t, dest); res.Failed || got != string(want) {
			t.Errorf("%s: %+v\n--- tender\n%s--- ansible\n%s", c.out, res, got, want)
		}
	}
}
