package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

func TestTempfile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	res := modtest.RunMod(t, env, "tempfile", tasks.Args{"path": dir, "prefix": "a b.", "suffix": ";x"})
	p, _ := res.Data["path"].(string)
	name := strings.TrimPrefix(filepath.Base(p), "a b.")
	if !res.Changed || filepath.Dir(p) != dir || !strings.HasSuffix(name, ";x") || len(name) != 10 || mode(t, p) != 0o600 {
		t.Fatalf("file: %+v", res)
	}
	res = modtest.RunMod(t, env, "tempfile", tasks.Args{"path": dir, "state": "directory"})
	p, _ = res.Data["path"].(string)
	if fi, err := os.Stat(p); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 || res.Data["state"] != "directory" {
		t.Fatalf("dir: %+v", res)
	}
	env.Check = true
	if res = modtest.RunMod(t, env, "tempfile", tasks.Args{"path": dir}); !res.Skipped {
		t.Fatalf("check: %+v", res)
	}
}
