package files

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// fakeSELinux puts selinuxenabled (exit status enabled), a stat that
// answers %C with ctx, and a chcon that logs its arguments first on PATH.
func fakeSELinux(t *testing.T, enabled int, ctx string) (log string) {
	dir := t.TempDir()
	log = filepath.Join(dir, "chcon.log")
	realStat, _ := filepath.Abs("/usr/bin/stat")
	for name, body := range map[string]string{
		"selinuxenabled": "exit " + map[int]string{0: "0", 1: "1"}[enabled],
		"stat":           `[ "$1 $2" = "-c %C" ] && { echo '` + ctx + `'; exit 0; }; exec ` + realStat + ` "$@"`,
		"chcon":          `echo "$*" >>'` + log + `'`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir+":"+os.Getenv("PATH"))
	return log
}

// TestSELinuxAttributes: seuser/serole/setype/selevel change the context
// with chcon where SELinux is enabled (only the parts that differ,
// _default kept), change nothing in check mode, and are ignored where
// SELinux is off, as Ansible does.
func TestSELinuxAttributes(t *testing.T) {
	if os.Getenv("TENDER_TEST_BUSYBOX") != "" {
		t.Skip("the fake stat wraps coreutils' stat")
	}
	path := filepath.Join(t.TempDir(), "f")
	os.WriteFile(path, []byte("x"), 0o644)
	args := tasks.Args{"path": path, "setype": "etc_t", "seuser": "_default", "selevel": "s0:c1,c2"}
	run := func(check bool) tasks.Result {
		env, _ := modtest.TestEnv(t, t.TempDir(), nil)
		env.Check = check
		res, err := fileModule{}.Run(context.Background(), env, args)
		if err != nil || res.Failed {
			t.Fatalf("file: %v %+v", err, res)
		}
		return res
	}

	log := fakeSELinux(t, 0, "system_u:object_r:tmp_t:s0:c1,c2")
	if res := run(true); !res.Changed {
		t.Error("check mode: a context to change is not reported")
	}
	if _, err := os.Stat(log); err == nil {
		t.Error("check mode ran chcon")
	}
	if res := run(false); !res.Changed {
		t.Error("a context to change is not reported")
	}
	b, _ := os.ReadFile(log)
	if got := strings.TrimSpace(string(b)); got != "-h -t etc_t -- "+path {
		t.Errorf("chcon %q, want only the type changed", got)
	}

	log = fakeSELinux(t, 0, "system_u:object_r:etc_t:s0:c1,c2")
	if res := run(false); res.Changed {
		t.Error("a context already right is changed")
	}
	log = fakeSELinux(t, 1, "system_u:object_r:tmp_t:s0")
	if res := run(false); res.Changed {
		t.Error("SELinux off: the parameters must be ignored")
	}
	if _, err := os.Stat(log); err == nil {
		t.Error("SELinux off: chcon ran")
	}
}
