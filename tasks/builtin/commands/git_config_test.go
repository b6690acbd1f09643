package commands

import (
	"encoding/hex"
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// hx is s as the scripts print it (hex).
func hx(s string) string { return hex.EncodeToString([]byte(s)) }

// TestGitConfigPlanErrors checks the argument rules: required_if on
// scope and the mutually exclusive groups (required_one_of never fails:
// list_all's default counts, as in Ansible).
func TestGitConfigPlanErrors(t *testing.T) {
	for _, c := range []struct {
		args tasks.Args
		want string
	}{
		{tasks.Args{"name": "a.b", "scope": "local", "value": "x"}, "scope is local but all of the following are missing: repo"},
		{tasks.Args{"name": "a.b", "scope": "file"}, "scope is file but all of the following are missing: file"},
		{tasks.Args{"list_all": true, "name": "a.b"}, "parameters are mutually exclusive: list_all|name"},
		{tasks.Args{"list_all": true, "state": "present"}, "parameters are mutually exclusive: list_all|state"},
	} {
		_, err := planGitConfig(c.args)
		if err == nil || err.Error() != c.want {
			t.Errorf("%v: got %v, want %q", c.args, err, c.want)
		}
	}
}

// TestGitConfigPlan checks the scope, directory and act a task plans.
func TestGitConfigPlan(t *testing.T) {
	for _, c := range []struct {
		args             tasks.Args
		scope, dir, act  string
		options          []string
		listAll, useFile bool
	}{
		{tasks.Args{"name": "a.b"}, "system", "/", "", []string{"--includes", "--system"}, false, false},
		{tasks.Args{"name": "a.b", "value": "v"}, "system", "/", "set", []string{"--includes", "--system"}, false, false},
		{tasks.Args{"name": "a.b", "value": "v", "state": "absent"}, "system", "/", "unset", []string{"--includes", "--system"}, false, false},
		{tasks.Args{"list_all": true}, "", "/", "", []string{"--includes", "-l"}, true, false},
		{tasks.Args{"list_all": true, "repo": "/r"}, "", "/r", "", []string{"--includes", "-l"}, true, false},
		{tasks.Args{"name": "a.b", "repo": "/r"}, "system", "/", "", []string{"--includes", "--system"}, false, false},
		{tasks.Args{"name": "a.b", "scope": "local", "repo": "/r"}, "local", "/r", "", []string{"--includes", "--local"}, false, false},
		{tasks.Args{"name": "a.b", "scope": "file", "file": "/f", "value": ""}, "file", "/", "", []string{"--includes", "-f", "F"}, false, true},
	} {
		p, err := planGitConfig(c.args)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if p.scope != c.scope || p.dir != c.dir || p.act() != c.act || p.listAll != c.listAll || p.useFile != c.useFile {
			t.Errorf("%v: got %+v act %q", c.args, p, p.act())
		}
		if got := p.options("F"); !reflect.DeepEqual(got, c.options) {
			t.Errorf("%v: options %q, want %q", c.args, got, c.options)
		}
	}
}

// TestGitConfigResult checks the results made from the script's verdicts.
func TestGitConfigResult(t *testing.T) {
	git := hx("/usr/bin/git")
	plan := func(a tasks.Args) gitConfigPlan {
		p, err := planGitConfig(a)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	set := plan(tasks.Args{"name": "a.b", "value": "new", "scope": "global"})
	unset := plan(tasks.Args{"name": "a.b", "state": "absent", "scope": "file", "file": "~/f"})
	list := plan(tasks.Args{"list_all": true, "scope": "global"})
	read := plan(tasks.Args{"name": "a.b"})
	for _, c := range []struct {
		name    string
		p       gitConfigPlan
		v       shared.Verdict
		out, e  string
		check   bool
		changed bool
		failed  bool
		data    map[string]any
	}{
		{"nogit", read, shared.Verdict{"nogit": hx("/bin:/sbin")}, "", "", false, false, true,
			map[string]any{}},
		{"read", read, shared.Verdict{"git": git, "rc": "0"}, "val  \n", "", false, false, false,
			map[string]any{"config_value": "val", "msg": ""}},
		{"read unset", read, shared.Verdict{"git": git, "rc": "1"}, "", "", false, false, false,
			map[string]any{"config_value": "", "msg": ""}},
		{"read error", read, shared.Verdict{"git": git, "rc": "2"}, "", "error: bad\n", false, false, true,
			map[string]any{"rc": 2, "cmd": "/usr/bin/git config --includes --system a.b", "msg": "error: bad\n"}},
		{"list", list, shared.Verdict{"git": git, "rc": "0"}, "a.b=1\nc.d=x=y\na.b=2\n", "", false, false, false,
			map[string]any{"config_values": map[string]any{"a.b": "2", "c.d": "x=y"}, "msg": ""}},
		{"list no file", list, shared.Verdict{"git": git, "rc": "128"}, "", "fatal: unable to read config file '/root/.gitconfig': No such file or directory\n", false, false, false,
			map[string]any{"config_values": map[string]any{}, "msg": ""}},
		{"same", set, shared.Verdict{"git": git, "rc": "0", "state": "same"}, "new\n", "", false, false, false,
			map[string]any{"msg": ""}},
		{"nothing to unset", unset, shared.Verdict{"git": git, "file": hx("/root/f"), "rc": "1", "state": "nothing"}, "", "", false, false, false,
			map[string]any{"msg": "no setting to unset"}},
		{"set", set, shared.Verdict{"git": git, "rc": "0", "state": "change", "wrc": "0"}, "old\n", "", false, true, false,
			map[string]any{"msg": "setting changed", "diff": map[string]any{
				"before_header": "/usr/bin/git config --includes --global a.b", "before": "old\n",
				"after_header": "/usr/bin/git config --includes --global a.b", "after": "new\n"}}},
		{"unset", unset, shared.Verdict{"git": git, "file": hx("/root/f"), "rc": "0", "state": "change", "wrc": "0"}, "old\n", "", false, true, false,
			map[string]any{"msg": "setting changed", "diff": map[string]any{
				"before_header": "/usr/bin/git config --includes -f /root/f --unset a.b", "before": "old\n",
				"after_header": "/usr/bin/git config --includes -f /root/f --unset a.b", "after": "\n"}}},
		{"unset check", unset, shared.Verdict{"git": git, "file": hx("/root/f"), "rc": "0", "state": "change"}, "old\n", "", true, true, false,
			map[string]any{"msg": "setting changed", "diff": map[string]any{
				"before_header": "/usr/bin/git config --includes -f /root/f a.b", "before": "old\n",
				"after_header": "/usr/bin/git config --includes -f /root/f a.b", "after": "\n"}}},
		{"write fails", set, shared.Verdict{"git": git, "rc": "0", "state": "change", "wrc": "5", "wfail": "1"}, "old\n", "error: no\n", false, false, true,
			map[string]any{"rc": 5, "msg": "error: no\n", "cmd": []any{"/usr/bin/git", "config", "--includes", "--global", "a.b", "new"}}},
	} {
		r := c.p.result(c.v, c.out, c.e, c.check)
		if r.Changed != c.changed || r.Failed != c.failed {
			t.Errorf("%s: changed %v failed %v", c.name, r.Changed, r.Failed)
		}
		if c.name == "nogit" {
			if r.Msg != `Failed to find required executable "git" in paths: /bin:/sbin` {
				t.Errorf("%s: msg %q", c.name, r.Msg)
			}
			continue
		}
		if !reflect.DeepEqual(r.Data, c.data) {
			t.Errorf("%s: data %#v, want %#v", c.name, r.Data, c.data)
		}
	}
}

// TestGitConfigListBadLine checks that a listed line without = fails.
func TestGitConfigListBadLine(t *testing.T) {
	if _, err := parseGitConfigList("a.b=1\nflag\n"); err == nil || !strings.Contains(err.Error(), "not enough values") {
		t.Errorf("got %v", err)
	}
}

// TestGitConfigScript checks that the values reach the script quoted and
// the path parameters expanded on the host.
func TestGitConfigScript(t *testing.T) {
	p, err := planGitConfig(tasks.Args{"name": "a.b", "scope": "file", "file": "~/x;y", "value": "$(id)"})
	if err != nil {
		t.Fatal(err)
	}
	s := p.script(true)
	for _, want := range []string{"new='$(id)'\n", "act=set\n", "check=1\n", `file="$HOME"'/x;y'` + "\n", `set -- --includes -f "$HOME"'/x;y'` + "\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("script lacks %q", want)
		}
	}
}
