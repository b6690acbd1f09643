package builtin

import (
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// TestRoundTrips counts the scripts (Conn.Run calls, one round trip each)
// and Puts each module costs, changed and unchanged. It is the table the
// design's "one round trip per task" is checked against.
func TestRoundTrips(t *testing.T) {
	t.Parallel()
	dir, files := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(files, "small"), []byte("small\n"), 0o644)
	os.WriteFile(filepath.Join(files, "big"), []byte(strings.Repeat("x", shared.InlineMax+1)), 0o644)
	os.MkdirAll(filepath.Join(files, "tree/sub"), 0o755)
	os.WriteFile(filepath.Join(files, "tree/sub/f"), []byte("f\n"), 0o644)
	os.WriteFile(filepath.Join(files, "s.sh"), []byte("#!/bin/sh\ntrue\n"), 0o644)
	env, cc := modtest.TestEnv(t, files, map[string]any{"x": true})
	me := "root"
	if u, err := user.Current(); err == nil {
		me = u.Username
	}
	for _, c := range []struct {
		name       string
		module     string
		args       tasks.Args
		runs, puts int
	}{
		{"command", "command", tasks.Args{"_raw_params": "true", "chdir": dir, "creates": dir + "/none"}, 1, 0},
		{"shell", "shell", tasks.Args{"_raw_params": "true", "removes": dir}, 1, 0},
		{"raw", "raw", tasks.Args{"_raw_params": "true"}, 1, 0},
		{"script", "script", tasks.Args{"_raw_params": "s.sh a b"}, 1, 0},
		{"copy small, changed", "copy", tasks.Args{"src": "small", "dest": dir + "/small", "mode": "0600"}, 1, 0},
		{"copy small, unchanged", "copy", tasks.Args{"src": "small", "dest": dir + "/small", "mode": "0600"}, 1, 0},
		{"copy big, changed", "copy", tasks.Args{"src": "big", "dest": dir + "/big"}, 2, 1},
		{"copy big, unchanged", "copy", tasks.Args{"src": "big", "dest": dir + "/big"}, 1, 0},
		{"copy tree, changed", "copy", tasks.Args{"src": "tree", "dest": dir}, 1, 1},
		{"copy tree, unchanged", "copy", tasks.Args{"src": "tree", "dest": dir}, 1, 0},
		{"copy tree with mode, changed", "copy", tasks.Args{"src": "tree/", "dest": dir + "/t2", "mode": "0600"}, 2, 1},
		{"file", "file", tasks.Args{"path": dir + "/d/e", "state": "directory", "mode": "0700", "recurse": true}, 1, 0},
		{"stat", "stat", tasks.Args{"path": dir + "/small"}, 1, 0},
		{"ping", "ping", tasks.Args{}, 1, 0},
		{"wait_for path", "wait_for", tasks.Args{"path": dir + "/small"}, 1, 0},
		{"lineinfile, changed", "lineinfile", tasks.Args{"path": dir + "/small", "line": "x"}, 2, 0},
		{"lineinfile, unchanged", "lineinfile", tasks.Args{"path": dir + "/small", "line": "x"}, 1, 0},
		{"replace, changed", "replace", tasks.Args{"path": dir + "/small", "regexp": "^x$", "replace": "y"}, 2, 0},
		{"replace, unchanged", "replace", tasks.Args{"path": dir + "/small", "regexp": "^x$", "replace": "y"}, 1, 0},
		{"blockinfile, changed", "blockinfile", tasks.Args{"path": dir + "/small", "block": "b"}, 2, 0},
		{"blockinfile, unchanged", "blockinfile", tasks.Args{"path": dir + "/small", "block": "b"}, 1, 0},
		{"ini_file, changed", "ini_file", tasks.Args{"path": dir + "/a.ini", "section": "s", "option": "o", "value": "v"}, 2, 0},
		{"ini_file, unchanged", "ini_file", tasks.Args{"path": dir + "/a.ini", "section": "s", "option": "o", "value": "v"}, 1, 0},
		{"tempfile", "tempfile", tasks.Args{"path": dir}, 1, 0},
		{"find", "find", tasks.Args{"paths": dir, "recurse": true}, 1, 0},
		{"find contains", "find", tasks.Args{"paths": dir, "contains": "x"}, 2, 0},
		{"assemble", "assemble", tasks.Args{"src": dir + "/tree", "dest": dir + "/assembled"}, 1, 0},
		{"fetch", "fetch", tasks.Args{"src": dir + "/small", "dest": files + "/small", "flat": true}, 1, 0},
		{"slurp", "slurp", tasks.Args{"src": dir + "/small"}, 1, 0},
		{"debug", "debug", tasks.Args{"var": "x"}, 0, 0},
		{"set_fact", "set_fact", tasks.Args{"y": 1}, 0, 0},
		{"assert", "assert", tasks.Args{"that": "x"}, 0, 0},
		{"fail", "fail", tasks.Args{}, 0, 0},
		{"cron file, changed", "cron", tasks.Args{"name": "j", "job": "true", "user": "root", "cron_file": dir + "/cron"}, 2, 0},
		{"cron file, unchanged", "cron", tasks.Args{"name": "j", "job": "true", "user": "root", "cron_file": dir + "/cron"}, 1, 0},
		{"known_hosts, changed", "known_hosts", tasks.Args{"name": "h.example", "key": "h.example " + modtest.TestKey1, "path": dir + "/kh"}, 2, 0},
		{"known_hosts, unchanged", "known_hosts", tasks.Args{"name": "h.example", "key": "h.example " + modtest.TestKey1, "path": dir + "/kh"}, 1, 0},
		{"authorized_key, changed", "authorized_key", tasks.Args{"user": me, "key": modtest.TestKey1, "path": dir + "/ak", "manage_dir": false}, 2, 0},
		{"authorized_key, unchanged", "authorized_key", tasks.Args{"user": me, "key": modtest.TestKey1, "path": dir + "/ak", "manage_dir": false}, 1, 0},
		{"sysctl file, changed", "sysctl", tasks.Args{"name": "vm.swappiness", "value": "10", "sysctl_file": dir + "/sysctl.conf", "reload": false}, 2, 0},
		{"sysctl file, unchanged", "sysctl", tasks.Args{"name": "vm.swappiness", "value": "10", "sysctl_file": dir + "/sysctl.conf", "reload": false}, 1, 0},
		{"selinux, no SELinux", "selinux", tasks.Args{"state": "disabled", "configfile": dir + "/none"}, 1, 0},
	} {
		cc.Runs, cc.Puts = 0, 0
		res := modtest.RunMod(t, env, c.module, c.args)
		if (res.Failed && c.module != "fail") || cc.Runs != c.runs || cc.Puts != c.puts {
			t.Errorf("%s: %d runs, %d puts, want %d, %d (%+v)", c.name, cc.Runs, cc.Puts, c.runs, c.puts, res)
		}
	}
}
