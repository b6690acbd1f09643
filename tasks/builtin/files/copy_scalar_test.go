package files

import (
	"path/filepath"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestCopyScalarContent: a content that YAML read as a boolean or a number
// is written as Python's str() gives it, a list as JSON.
func TestCopyScalarContent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	for i, c := range []struct {
		content any
		want    string
	}{
		{true, "True"},
		{false, "False"},
		{12, "12"},
		{1.0, "1.0"},
		{[]any{"a", 1}, `["a", 1]`},
	} {
		dest := filepath.Join(dir, "f"+string(rune('a'+i)))
		res := modtest.RunMod(t, env, "copy", tasks.Args{"content": c.content, "dest": dest})
		if res.Failed || modtest.ReadFile(t, dest) != c.want {
			t.Errorf("content %#v: %+v, file %q, want %q", c.content, res, modtest.ReadFile(t, dest), c.want)
		}
	}
}
