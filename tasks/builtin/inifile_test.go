package builtin

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tender-sh/tender/tasks"
)

func TestIniFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env, cc := testEnv(t, dir, nil)
	p := filepath.Join(dir, "a.ini")
	os.WriteFile(p, []byte("\ufeff[s]\r\na = 1\r\n"), 0o644)
	args := tasks.Args{"path": p, "section": "s", "option": "a", "value": "2"}
	env.Check = true
	res := runMod(t, env, "ini_file", args)
	if !res.Changed || res.Msg != "option changed" || readFile(t, p) != "\ufeff[s]\r\na = 1\r\n" {
		t.Fatalf("check: %+v", res)
	}
	env.Check = false
	res = runMod(t, env, "ini_file", args)
	// As ini_file: the BOM is dropped and the lines end in "\n".
	if !res.Changed || readFile(t, p) != "[s]\na = 2\n" {
		t.Fatalf("apply: %+v %q", res, readFile(t, p))
	}
	cc.runs = 0
	res = runMod(t, env, "ini_file", args)
	if res.Changed || res.Msg != "OK" || cc.runs != 1 || res.Data["mode"] != "0644" {
		t.Fatalf("again: %+v runs=%d", res, cc.runs)
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
		runMod(t, env, "ini_file", c.args)
		if got := readFile(t, p); got != c.want {
			t.Errorf("%v: %q, want %q", c.args, got, c.want)
		}
	}
}
