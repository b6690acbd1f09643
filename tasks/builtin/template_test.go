package builtin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
)

func TestTemplate(t *testing.T) {
	t.Parallel()
	dir, files := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(files, "t.j2"), []byte("x={{ x }}\n{% if x %}yes{% endif %}\n"), 0o600)
	env, cc := testEnv(t, files, nil)
	env.Render = func(text string) (string, error) {
		tpl, err := expr.ParseFileTemplate(text)
		if err != nil {
			return "", err
		}
		v, err := tpl.Render(expr.NewVars(map[string]any{"x": 1, "ansible_managed": "overridden"}))
		return expr.Str(v), err
	}
	dest := filepath.Join(dir, "out")
	args := tasks.Args{"src": "t.j2", "dest": dest, "mode": "preserve"}
	cc.runs = 0
	res := runMod(t, env, "template", args)
	if !res.Changed || readFile(t, dest) != "x=1\nyes\n" || mode(t, dest) != 0o600 || cc.runs != 1 {
		t.Fatalf("first: %+v %q runs=%d", res, readFile(t, dest), cc.runs)
	}
	res = runMod(t, env, "template", args)
	if res.Changed || res.Failed {
		t.Fatalf("again: %+v", res)
	}
	// ansible_managed is defined over any variable of that name, and the
	// template's own leading newline stays.
	os.WriteFile(filepath.Join(files, "m.j2"), []byte("\n# {{ ansible_managed }}\n"), 0o600)
	res = runMod(t, env, "template", tasks.Args{"src": "m.j2", "dest": dest})
	if got := readFile(t, dest); !res.Changed || got != "\n# Ansible managed\n" {
		t.Errorf("ansible_managed: %+v %q", res, got)
	}
	for bad, want := range map[string]string{"variable_start_string": "not supported", "state": "'state' cannot be specified"} {
		res = runMod(t, env, "template", tasks.Args{"src": "t.j2", "dest": dest, bad: "x"})
		if !res.Failed || !strings.Contains(res.Msg, want) {
			t.Errorf("%s: %+v", bad, res)
		}
	}
}
