package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

func TestTemplate(t *testing.T) {
	t.Parallel()
	dir, files := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(files, "t.j2"), []byte("x={{ x }}\n{% if x %}yes{% endif %}\n"), 0o600)
	env, cc := modtest.TestEnv(t, files, nil)
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
	cc.Runs = 0
	res := modtest.RunMod(t, env, "template", args)
	if !res.Changed || modtest.ReadFile(t, dest) != "x=1\nyes\n" || mode(t, dest) != 0o600 || cc.Runs != 1 {
		t.Fatalf("first: %+v %q runs=%d", res, modtest.ReadFile(t, dest), cc.Runs)
	}
	res = modtest.RunMod(t, env, "template", args)
	if res.Changed || res.Failed {
		t.Fatalf("again: %+v", res)
	}
	// ansible_managed is defined over any variable of that name, and the
	// template's own leading newline stays.
	os.WriteFile(filepath.Join(files, "m.j2"), []byte("\n# {{ ansible_managed }}\n"), 0o600)
	res = modtest.RunMod(t, env, "template", tasks.Args{"src": "m.j2", "dest": dest})
	if got := modtest.ReadFile(t, dest); !res.Changed || got != "\n# Ansible managed\n" {
		t.Errorf("ansible_managed: %+v %q", res, got)
	}
	for bad, want := range map[string]string{"variable_start_string": "not supported", "state": "'state' cannot be specified"} {
		res = modtest.RunMod(t, env, "template", tasks.Args{"src": "t.j2", "dest": dest, bad: "x"})
		if !res.Failed || !strings.Contains(res.Msg, want) {
			t.Errorf("%s: %+v", bad, res)
		}
	}
}
