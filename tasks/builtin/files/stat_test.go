package files

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

func TestStat(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cc := modtest.TestEnv(t, dir, nil)
	f := filepath.Join(dir, "f $(x)")
	os.WriteFile(f, []byte("hello\n"), 0o640)
	os.Symlink(f, dir+"/l")
	res := modtest.RunMod(t, env, "stat", tasks.Args{"path": f, "checksum_algorithm": "md5", "get_md5": true})
	st := res.Data["stat"].(map[string]any)
	if res.Changed || cc.Runs != 1 || st["exists"] != true || st["isreg"] != true || st["mode"] != "0640" || st["size"] != int64(6) ||
		st["checksum"] != "b1946ac92492d2347c6235b4d2611184" || st["md5"] != "b1946ac92492d2347c6235b4d2611184" ||
		st["rusr"] != true || st["roth"] != false || st["pw_name"] == "" || st["readable"] != true {
		t.Fatalf("%+v", st)
	}
	fi, _ := os.Stat(f)
	if mt := st["mtime"].(float64); int64(mt) != fi.ModTime().Unix() {
		t.Fatalf("mtime %v vs %v", mt, fi.ModTime())
	}
	st = modtest.RunMod(t, env, "stat", tasks.Args{"path": dir + "/l"}).Data["stat"].(map[string]any)
	if st["islnk"] != true || st["lnk_target"] != f || st["checksum"] != nil {
		t.Fatalf("%+v", st)
	}
	st = modtest.RunMod(t, env, "stat", tasks.Args{"path": dir + "/l", "follow": true, "checksum_algorithm": "sha256"}).Data["stat"].(map[string]any)
	if st["islnk"] != false || st["checksum"] != "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03" {
		t.Fatalf("%+v", st)
	}
	st = modtest.RunMod(t, env, "stat", tasks.Args{"path": dir + "/none"}).Data["stat"].(map[string]any)
	if len(st) != 1 || st["exists"] != false {
		t.Fatalf("%+v", st)
	}
	st = modtest.RunMod(t, env, "stat", tasks.Args{"path": dir}).Data["stat"].(map[string]any)
	if st["isdir"] != true || st["checksum"] != nil {
		t.Fatalf("%+v", st)
	}
	// A path through a file is not missing: lstat fails, and so does the
	// module with its strerror, as Ansible's stat.
	if res := modtest.RunMod(t, env, "stat", tasks.Args{"path": f + "/x"}); !res.Failed || res.Msg != "Not a directory" {
		t.Fatalf("%+v", res)
	}
}

// TestStatPathExpanded: stat.path is the path as the host expanded it (a
// leading ~ is the home directory), as Ansible's path parameters are.
func TestStatPathExpanded(t *testing.T) {
	home := os.Getenv("HOME")
	if fi, err := os.Stat(home); home == "" || err != nil || !fi.IsDir() {
		t.Skip("no home directory to expand ~ to")
	}
	env, _ := modtest.TestEnv(t, t.TempDir(), nil)
	st := modtest.RunMod(t, env, "stat", tasks.Args{"path": "~"}).Data["stat"].(map[string]any)
	if st["path"] != home || st["isdir"] != true {
		t.Errorf("stat ~: path %v, want %s", st["path"], home)
	}
}
