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
	for bad, want := range map[string]string{"variable_start_string": "own markers, trim_blocks or lstrip_blocks cannot be rendered here", "state": "'state' cannot be specified"} {
		res = modtest.RunMod(t, env, "template", tasks.Args{"src": "t.j2", "dest": dest, bad: "x"})
		if !res.Failed || !strings.Contains(res.Msg, want) {
			t.Errorf("%s: %+v", bad, res)
		}
	}
}

// TestTemplateVars: the template module gives its file Ansible's template
// variables: src as written, the file found, the destination, its owner
// and times as datetimes.
func TestTemplateVars(t *testing.T) {
	t.Parallel()
	dir, files := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(files, "v.j2"), []byte("{{ template_path }}|{{ template_fullpath }}|{{ template_destpath }}|"+
		"{{ template_mtime | type_debug }}|{{ template_run_date | type_debug }}|{{ template_uid != '' }}|{{ template_host != '' }}\n"), 0o600)
	env, _ := modtest.TestEnv(t, files, nil)
	se := tasks.ScopeEnv(nil, expr.NewVars(map[string]any{}))
	env.Render, env.RenderFile = se.Render, se.RenderFile
	dest := filepath.Join(dir, "out")
	res := modtest.RunMod(t, env, "template", tasks.Args{"src": "v.j2", "dest": dest})
	want := "v.j2|" + filepath.Join(files, "v.j2") + "|" + dest + "|datetime|datetime|True|True\n"
	if res.Failed || modtest.ReadFile(t, dest) != want {
		t.Fatalf("%+v\n%q, want %q", res, modtest.ReadFile(t, dest), want)
	}
	// The markers the task sets, in the file and what it includes.
	os.WriteFile(filepath.Join(files, "mk.j2"), []byte("[% if true %]<< 1 + 1 >>[% endif %][# gone #]{{ kept }}[% include 'inc.j2' %]\n"), 0o600)
	os.WriteFile(filepath.Join(files, "inc.j2"), []byte("<< 'inc' >>"), 0o600)
	res = modtest.RunMod(t, env, "template", tasks.Args{"src": "mk.j2", "dest": dest, "variable_start_string": "<<", "variable_end_string": ">>",
		"block_start_string": "[%", "block_end_string": "%]", "comment_start_string": "[#", "comment_end_string": "#]"})
	if got := modtest.ReadFile(t, dest); res.Failed || got != "2{{ kept }}inc\n" {
		t.Errorf("markers: %+v %q", res, got)
	}
}
