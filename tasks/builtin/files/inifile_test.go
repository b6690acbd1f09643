package files

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

func TestIniFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cc := modtest.TestEnv(t, dir, nil)
	p := filepath.Join(dir, "a.ini")
	os.WriteFile(p, []byte("\ufeff[s]\r\na = 1\r\n"), 0o644)
	args := tasks.Args{"path": p, "section": "s", "option": "a", "value": "2"}
	env.Check = true
	res := modtest.RunMod(t, env, "ini_file", args)
	if !res.Changed || res.Msg != "option changed" || modtest.ReadFile(t, p) != "\ufeff[s]\r\na = 1\r\n" {
		t.Fatalf("check: %+v", res)
	}
	env.Check = false
	res = modtest.RunMod(t, env, "ini_file", args)
	// As ini_file: the BOM is dropped and the lines end in "\n".
	if !res.Changed || modtest.ReadFile(t, p) != "[s]\na = 2\n" {
		t.Fatalf("apply: %+v %q", res, modtest.ReadFile(t, p))
	}
	cc.Runs = 0
	res = modtest.RunMod(t, env, "ini_file", args)
	if res.Changed || res.Msg != "OK" || cc.Runs != 1 || res.Data["mode"] != "0644" {
		t.Fatalf("again: %+v runs=%d", res, cc.Runs)
	}
	for _, c := range []struct {
		args tasks.Args
		want string
	}{
		{tasks.Args{"section": "t", "option": "k", "value": "v", "no_extra_spaces": true}, "[s]\na = 2\n[t]\nk=v\n"},
		{tasks.Args{"section": "s", "option": "b", "values": []any{"1", "2"}}, "[s]\na = 2\nb = 1\nb = 2\n[t]\nk=v\n"},
		{tasks.Args{"section": "s", "option": "b", "state": "absent"}, "[s]\na = 2\n[t]\nk=v\n"},
		{tasks.Args{"section": "t", "state": "absent"}, "[s]\na = 2\n"},
	} {
		c.args["path"] = p
		modtest.RunMod(t, env, "ini_file", c.args)
		if got := modtest.ReadFile(t, p); got != c.want {
			t.Errorf("%v: %q, want %q", c.args, got, c.want)
		}
	}
}
