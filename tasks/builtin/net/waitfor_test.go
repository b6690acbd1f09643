package net

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

func TestWaitForPath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cc := modtest.TestEnv(t, dir, nil)
	f := filepath.Join(dir, "f")
	os.WriteFile(f, []byte("version=2.5\n"), 0o644)
	res := modtest.RunMod(t, env, "wait_for", tasks.Args{"path": f, "search_regex": `version=(?P<v>\d+)\.(\d+)`})
	if res.Failed || res.Changed || cc.Runs != 1 || res.Data["state"] != "file" || res.Data["mode"] != "0644" {
		t.Fatalf("%+v", res)
	}
	if g := res.Data["match_groups"].([]any); len(g) != 2 || g[0] != "2" || res.Data["match_groupdict"].(map[string]any)["v"] != "2" {
		t.Fatalf("%+v", res.Data)
	}
	// Python's re on bytes, MULTILINE: lookbehind, a backreference, a
	// group that did not take part (None), \w ASCII's
	os.WriteFile(f, []byte("caf\xc3\xa9=1\nport=22 22\n"), 0o644)
	res = modtest.RunMod(t, env, "wait_for", tasks.Args{"path": f, "search_regex": `(?<=^port=)(\d+) \1$|(x)|^\w+=1`})
	if g := res.Data["match_groups"].([]any); res.Failed || len(g) != 2 || g[0] != "22" || g[1] != nil {
		t.Fatalf("Python's re: %+v", res)
	}
	res = modtest.RunMod(t, env, "wait_for", tasks.Args{"path": f, "search_regex": `(?<=a+)`})
	if !res.Failed || res.Msg != "Invalid regular expression: regular expression \"(?<=a+)\": look-behind requires fixed-width pattern at position 0" {
		t.Fatalf("invalid: %+v", res)
	}
	res = modtest.RunMod(t, env, "wait_for", tasks.Args{"path": dir + "/none", "state": "absent"})
	if res.Failed || res.Data["state"] != "absent" {
		t.Fatalf("%+v", res)
	}
	res = modtest.RunMod(t, env, "wait_for", tasks.Args{"path": dir + "/none", "timeout": 1})
	if !res.Failed || res.Msg != "Timeout when waiting for file "+dir+"/none" {
		t.Fatalf("%+v", res)
	}
	res = modtest.RunMod(t, env, "wait_for", tasks.Args{"path": dir, "port": 1})
	if !res.Failed || res.Msg != "port and path parameter can not both be passed to wait_for" {
		t.Fatalf("%+v", res)
	}
}

func TestWaitForPort(t *testing.T) {
	t.Parallel()
	env, _ := modtest.TestEnv(t, t.TempDir(), nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("SSH-2.0-test\r\n"))
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	res := modtest.RunMod(t, env, "wait_for", tasks.Args{"port": port, "timeout": 2, "search_regex": "SSH-(2)"})
	if res.Failed || res.Data["port"] != port || res.Data["match_groups"].([]any)[0] != "2" {
		t.Fatalf("%+v", res)
	}
	res = modtest.RunMod(t, env, "wait_for", tasks.Args{"port": strconv.Itoa(port), "state": "drained", "timeout": 2, "exclude_hosts": "10.0.0.1", "active_connection_states": []any{"ESTABLISHED"}})
	if res.Failed {
		t.Fatalf("drained %+v", res)
	}
	ln.Close()
	res = modtest.RunMod(t, env, "wait_for", tasks.Args{"port": port, "state": "stopped", "timeout": 2})
	if res.Failed || res.Data["state"] != "stopped" {
		t.Fatalf("%+v", res)
	}
	res = modtest.RunMod(t, env, "wait_for", tasks.Args{"port": port, "timeout": 1, "host": "127.0.0.1"})
	if !res.Failed || res.Msg != "Timeout when waiting for 127.0.0.1:"+strconv.Itoa(port) {
		t.Fatalf("%+v", res)
	}
}
