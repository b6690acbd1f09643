package packages

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestRepoINI reads each repo file of testdata/yum_repository/
// ini_inputs.json with tender's parser and compares the file it writes
// back and yum_repository's sorted dump with what Python's
// configparser.RawConfigParser made of it (ini_expected.json, recorded by
// gen_ini.py): comments dropped, option names lower-cased, continuation
// lines and blank lines in values, DEFAULT merged into every section,
// and the inputs it refuses.
func TestRepoINI(t *testing.T) {
	var in map[string]string
	var want map[string]map[string]string
	for f, v := range map[string]any{"ini_inputs.json": &in, "ini_expected.json": &want} {
		b, err := os.ReadFile("../testdata/yum_repository/" + f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range in {
		w := want[name]
		ini, err := parseRepoINI(text, "f.repo")
		if w["error"] != "" {
			if err == nil {
				t.Errorf("%s: read, Python says %s", name, w["error"])
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := ini.write(); got != w["write"] {
			t.Errorf("%s: writes\n%q\nPython writes\n%q", name, got, w["write"])
		}
		if got := ini.dump(); got != w["dump"] {
			t.Errorf("%s: dumps\n%q\nPython's dump\n%q", name, got, w["dump"])
		}
	}
}

// TestYumRepositoryLocal adds, changes and removes repositories in a
// repos directory on this machine: the file written, the result, check
// mode, idempotence, the password hidden in the diff, the file removed
// with its last repository.
func TestYumRepositoryLocal(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	env, cc := modtest.TestEnv(t, t.TempDir(), nil)
	m := yumRepositoryModule{}
	add := tasks.Args{"name": "r1", "description": "first", "baseurl": []any{"http://a/", "http://b/"},
		"gpgcheck": false, "exclude": "x,y", "priority": 5, "password": "hunter2", "reposdir": dir, "mode": "0640"}
	file := filepath.Join(dir, "r1.repo")
	env.Check = true
	res, err := m.Run(ctx, env, add)
	if err != nil || !res.Changed || res.Failed {
		t.Fatalf("check: %v %+v", err, res)
	}
	if _, err := os.Stat(file); err == nil {
		t.Fatal("check mode wrote the file")
	}
	env.Check = false
	cc.Runs = 0
	res, err = m.Run(ctx, env, add)
	if err != nil || !res.Changed || res.Failed {
		t.Fatalf("add: %v %+v", err, res)
	}
	if cc.Runs != 2 {
		t.Errorf("add took %d round trips, want 2", cc.Runs)
	}
	b, _ := os.ReadFile(file)
	want := "[r1]\nbaseurl = http://a/\n\thttp://b/\nexclude = x y\ngpgcheck = 0\nname = first\npassword = hunter2\npriority = 5\n\n"
	if string(b) != want {
		t.Errorf("file\n%q\nwant\n%q", b, want)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", fi.Mode())
	}
	d := res.Data["diff"].(map[string]any)
	if strings.Contains(d["after"].(string), "hunter2") || !strings.Contains(d["after"].(string), "password = ********") || d["before"] != "" {
		t.Errorf("diff %q", d)
	}
	if res.Data["repo"] != "r1" || res.Data["state"] != "present" || d["before_header"] != file {
		t.Errorf("result %v", res.Data)
	}
	cc.Runs = 0
	if res, err = m.Run(ctx, env, add); err != nil || res.Changed {
		t.Errorf("again: %v %+v", err, res)
	}
	if cc.Runs != 1 {
		t.Errorf("an unchanged repository took %d round trips, want 1", cc.Runs)
	}
	two := tasks.Args{"name": "r2", "file": "r1", "description": "second", "mirrorlist": "http://m/", "reposdir": dir}
	if res, err = m.Run(ctx, env, two); err != nil || !res.Changed {
		t.Fatalf("second: %v %+v", err, res)
	}
	for _, name := range []string{"r1", "r2"} {
		res, err = m.Run(ctx, env, tasks.Args{"name": name, "file": "r1", "state": "absent", "reposdir": dir})
		if err != nil || !res.Changed {
			t.Fatalf("absent %s: %v %+v", name, err, res)
		}
	}
	if _, err := os.Stat(file); err == nil {
		t.Error("the file of no repository is still there")
	}
	if res, err = m.Run(ctx, env, tasks.Args{"name": "r1", "state": "absent", "reposdir": dir}); err != nil || res.Changed {
		t.Errorf("absent again: %v %+v", err, res)
	}
	if _, err := m.Run(ctx, env, tasks.Args{"name": "r1", "description": "d", "baseurl": "x", "reposdir": dir, "attr": "+i"}); err == nil {
		t.Error("attributes accepted")
	}
}
