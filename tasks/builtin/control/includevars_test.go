package control

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestIncludeVarsExtensions: extensions are told as Python's splitext tells
// them: "" admits files without one (".hidden" has none), and
// ignore_unknown_extensions skips the others.
func TestIncludeVarsExtensions(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"vars/plain":      "plain: 1\n",
		"vars/a.yml":      "a: 1\n",
		"vars/notes.txt":  "not: vars\n",
		"vars/.hidden":    "hidden: 1\n",
		"vars/b.tar.json": `{"b": 1}`,
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
	}
	env, _ := modtest.TestEnv(t, dir, nil)
	env.FindFile = func(kind, name string) (string, error) { return filepath.Join(dir, name), nil }
	res := modtest.RunMod(t, env, "include_vars", tasks.Args{"dir": "vars", "ignore_unknown_extensions": true,
		"extensions": []any{"", "yml", "json"}})
	facts, _ := res.Data["ansible_facts"].(map[string]any)
	for _, k := range []string{"plain", "a", "b", "hidden"} {
		if _, ok := facts[k]; !ok {
			t.Errorf("%s not loaded: %+v", k, res)
		}
	}
	if _, ok := facts["not"]; ok {
		t.Errorf("notes.txt was loaded: %+v", res)
	}
	for name, want := range map[string]string{"a.yml": ".yml", "plain": "", ".hidden": "", "..x": "", "a.b.c": ".c", "a.": "."} {
		if got := pySplitExt(name); got != want {
			t.Errorf("pySplitExt(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestIncludeVarsNotFound: a name that is not found, or an empty one (a
// lookup that found nothing), fails under "message", as Ansible's.
func TestIncludeVarsNotFound(t *testing.T) {
	env, _ := modtest.TestEnv(t, t.TempDir(), nil)
	res := modtest.RunMod(t, env, "include_vars", tasks.Args{"file": ""})
	if !res.Failed || res.Data["message"] != "Could not find file on the Ansible Controller.\n"+remoteSrcHint {
		t.Errorf("empty file: %+v", res)
	}
	res = modtest.RunMod(t, env, "include_vars", tasks.Args{"_raw_params": "nope.yml"})
	if msg, _ := res.Data["message"].(string); !res.Failed || !strings.HasPrefix(msg, "Could not find or access 'nope.yml'") {
		t.Errorf("missing file: %+v", res)
	}
}
