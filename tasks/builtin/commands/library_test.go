package commands

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// libraryEnv writes a content module into a new directory and returns an
// Env that runs it on the local host, with HOME in a directory of the
// test's (where ~/.ansible/tmp goes).
func libraryEnv(t *testing.T, name, body string, vars map[string]any) (*tasks.Env, *modtest.CountingConn) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	env, cc := modtest.TestEnv(t, dir, vars)
	env.ModuleFile, env.Action = file, strings.TrimSuffix(name, filepath.Ext(name))
	return env, cc
}

func TestClassifyContentModule(t *testing.T) {
	for _, c := range []struct {
		name, body string
		kind       moduleKind
		interp     string
	}{
		{"m.py", "#!/usr/bin/python\nfrom ansible.module_utils.basic import AnsibleModule\n", kindAnsiballZ, "python"},
		{"m.py", "import ansible.module_utils.basic\n", kindAnsiballZ, "python"},
		{"m", "#!/usr/bin/env python3\n# WANT_JSON\nimport json\n", kindWantJSON, "python"},
		{"m.sh", "#!/bin/bash\nsource $1\n", kindOldStyle, "bash"},
		{"m", "\x7fELF\x02\x01\x01\x00\x00", kindBinary, ""},
	} {
		m := classify(c.name, []byte(c.body))
		if m.kind != c.kind || m.interp != c.interp {
			t.Errorf("%s %q: kind %d interp %q, want %d %q", c.name, c.body, m.kind, m.interp, c.kind, c.interp)
		}
	}
}

func TestJSONInModuleOutput(t *testing.T) {
	for _, c := range []struct {
		out, json, warning string
		err                bool
	}{
		{`{"a": 1}`, `{"a": 1}`, "", false},
		{"leading junk\n{\"a\": 1}\n", `{"a": 1}`, "", false},
		{"{\"a\": 1}\ntrailing junk\n", `{"a": 1}`, "Module invocation had junk after the JSON data: trailing junk", false},
		{"{\n \"a\": 1\n}\n\n", "{\n \"a\": 1\n}", "", false},
		{"no json here\n", "", "", true},
		{"{ not closed\n", "", "", true},
	} {
		got, warnings, err := jsonInOutput(c.out)
		if (err != nil) != c.err || got != c.json || strings.Join(warnings, "|") != c.warning {
			t.Errorf("%q: %q %q %v", c.out, got, warnings, err)
		}
	}
}

// TestLibraryModuleProtocols runs content modules of each kind on the
// local host: a WANT_JSON module reads its arguments as JSON, an
// old-style one as k='v' pairs it can source, and each result's keys
// become the task's.
func TestLibraryModuleProtocols(t *testing.T) {
	wantJSON := "#!/bin/sh\n# WANT_JSON\nprintf '{\"changed\": true, \"got\": %s}\\n' \"$(cat \"$1\")\"\n"
	env, _ := libraryEnv(t, "echo_json", wantJSON, nil)
	res, err := libraryModule{}.Run(context.Background(), env, tasks.Args{"greeting": "it's \"quoted\"", "n": 3})
	if err != nil || res.Failed || !res.Changed {
		t.Fatalf("WANT_JSON module: %+v %v", res, err)
	}
	got, _ := res.Data["got"].(map[string]any)
	if got["greeting"] != `it's "quoted"` || got["n"] != 3 || got["_ansible_module_name"] != "echo_json" || got["_ansible_check_mode"] != false {
		t.Errorf("arguments as the module read them: %v", got)
	}

	oldStyle := "#!/bin/sh\n. \"$1\"\nprintf '{\"msg\": \"%s\", \"rc\": 0}\\n' \"$greeting\"\n"
	env, _ = libraryEnv(t, "old.sh", oldStyle, nil)
	res, err = libraryModule{}.Run(context.Background(), env, tasks.Args{"greeting": "a b; $(touch /tmp/never)"})
	if err != nil || res.Failed || res.Msg != "a b; $(touch /tmp/never)" {
		t.Fatalf("old-style module: %+v %v", res, err)
	}

	junk := "#!/bin/sh\necho 'not json'\necho oops >&2\nexit 3\n"
	env, _ = libraryEnv(t, "junk", junk, nil)
	res, err = libraryModule{}.Run(context.Background(), env, tasks.Args{})
	if err != nil || !res.Failed || !strings.HasPrefix(res.Msg, "MODULE FAILURE\nSee stdout/stderr") ||
		res.Data["module_stdout"] != "not json\n" || res.Data["module_stderr"] != "oops\n" || res.Data["rc"] != 3 {
		t.Errorf("a module that prints no JSON: %+v %v", res, err)
	}

	rcOnly := "#!/bin/sh\necho '{\"rc\": 2, \"msg\": \"rc alone\"}'\n"
	env, _ = libraryEnv(t, "rconly", rcOnly, nil)
	if res, _ = (libraryModule{}).Run(context.Background(), env, tasks.Args{}); !res.Failed {
		t.Errorf("a result with rc 2 and no failed key must fail, as in Ansible: %+v", res)
	}

	env, _ = libraryEnv(t, "py.py", "#!/usr/bin/python\nprint('{}')\n", map[string]any{"ansible_python_interpreter": "/nonexistent/python"})
	res, _ = libraryModule{}.Run(context.Background(), env, tasks.Args{})
	if !res.Failed || !strings.HasPrefix(res.Msg, "The module failed to execute correctly, you probably need to set the interpreter.") {
		t.Errorf("a missing interpreter: %+v", res)
	}
	if _, err := os.Stat("/tmp/never"); err == nil {
		t.Error("an argument's text was run as shell")
	}
}

// TestLibraryModuleAnsibleModule runs a Python module built on
// AnsibleModule with the controller's ansible-core module_utils, sent to
// the host once: the second run finds them there.
func TestLibraryModuleAnsibleModule(t *testing.T) {
	if _, err := controllerModuleUtils(); err != nil {
		t.Skipf("needs ansible-core on this machine (make test installs it): %v", err)
	}
	body := `#!/usr/bin/python
from ansible.module_utils.basic import AnsibleModule

def main():
    m = AnsibleModule(argument_spec=dict(name=dict(type='str', required=True), count=dict(type='int', default=1)),
                      supports_check_mode=True)
    if m.params['name'] == 'fail':
        m.fail_json(msg='asked to fail', count=m.params['count'])
    m.exit_json(changed=not m.check_mode, greeting='hello ' + m.params['name'], count=m.params['count'] * 2)

main()
`
	env, cc := libraryEnv(t, "greet.py", body, map[string]any{"ansible_python_interpreter": "/usr/bin/python3"})
	res, err := libraryModule{}.Run(context.Background(), env, tasks.Args{"name": "world", "count": "21"})
	if err != nil || res.Failed || !res.Changed || res.Data["greeting"] != "hello world" || res.Data["count"] != 42 {
		t.Fatalf("AnsibleModule module: %+v %v", res, err)
	}
	if cc.Puts != 1 {
		t.Errorf("module_utils sent %d times, want once", cc.Puts)
	}
	env.Check = true
	res, err = libraryModule{}.Run(context.Background(), env, tasks.Args{"name": "world"})
	if err != nil || res.Failed || res.Changed {
		t.Errorf("check mode reaches the module: %+v %v", res, err)
	}
	res, _ = libraryModule{}.Run(context.Background(), env, tasks.Args{"name": "fail"})
	if !res.Failed || res.Msg != "asked to fail" {
		t.Errorf("fail_json: %+v", res)
	}
	res, _ = libraryModule{}.Run(context.Background(), env, tasks.Args{})
	if !res.Failed || !strings.Contains(res.Msg, "missing required arguments: name") {
		t.Errorf("AnsibleModule's own argument check: %+v", res)
	}
	if cc.Puts != 1 {
		t.Errorf("module_utils sent %d times over four runs, want once", cc.Puts)
	}
}

// TestCollectionModule runs a collection's module as Ansible does: with
// python -m from a zip of its collection's packages, so that its
// relative and absolute imports of the collection's module_utils (and
// of another collection's) resolve; each zip is sent once.
func TestCollectionModule(t *testing.T) {
	if _, err := controllerModuleUtils(); err != nil {
		t.Skipf("needs ansible-core on this machine (make test installs it): %v", err)
	}
	t.Setenv("HOME", t.TempDir())
	root := filepath.Join(t.TempDir(), "ansible_collections")
	other := filepath.Join(t.TempDir(), "ansible_collections")
	for p, text := range map[string]string{
		root + "/acme/tools/plugins/modules/greet.py": `#!/usr/bin/python
from ansible.module_utils.basic import AnsibleModule
from ..module_utils.words import hello
from ansible_collections.acme.tools.plugins.module_utils import sub
from ansible_collections.far.away.plugins.module_utils.punct import bang

def main():
    m = AnsibleModule(argument_spec=dict(name=dict(type='str', required=True)), supports_check_mode=True)
    m.exit_json(changed=True, greeting=bang(hello(m.params['name'])) + sub.SUFFIX, pkg=__package__)

if __name__ == '__main__':
    main()
`,
		root + "/acme/tools/plugins/module_utils/words.py":  "def hello(n):\n    return 'hello ' + n\n",
		root + "/acme/tools/plugins/module_utils/sub.py":    "SUFFIX = '?'\n",
		other + "/far/away/plugins/module_utils/punct.py":   "def bang(s):\n    return s + '!'\n",
		other + "/acme/tools/plugins/module_utils/words.py": "raise ImportError('the first root holding a collection wins')\n",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env, cc := modtest.TestEnv(t, t.TempDir(), map[string]any{"ansible_python_interpreter": "/usr/bin/python3"})
	env.ModuleFile, env.Action = filepath.Join(root, "acme/tools/plugins/modules/greet.py"), "acme.tools.greet"
	env.CollectionRoots = []string{root, other}
	for range 2 {
		res, err := libraryModule{}.Run(context.Background(), env, tasks.Args{"name": "world"})
		if err != nil || res.Failed || res.Data["greeting"] != "hello world!?" || res.Data["pkg"] != "ansible_collections.acme.tools.plugins.modules" {
			t.Fatalf("collection module: %+v %v", res, err)
		}
	}
	if cc.Puts != 2 {
		t.Errorf("%d zips sent over two runs, want 2 (module_utils and the collection's), once", cc.Puts)
	}
}

// TestLibraryModuleUmask: the module runs with the login's umask (what
// it creates gets the modes Ansible's would), not the 077 its private
// directory is made with.
func TestLibraryModuleUmask(t *testing.T) {
	want, err := exec.Command("sh", "-c", "umask").Output()
	if err != nil {
		t.Fatal(err)
	}
	env, _ := libraryEnv(t, "um", "#!/bin/sh\n# WANT_JSON\nprintf '{\"umask\": \"%s\"}\\n' \"$(umask)\"\n", nil)
	res, err := libraryModule{}.Run(context.Background(), env, tasks.Args{})
	if err != nil || res.Failed || res.Data["umask"] != strings.TrimSpace(string(want)) {
		t.Errorf("the module's umask: %+v %v, want %s", res.Data, err, want)
	}
}

// TestLibraryModuleDiff: the diff a content module returns is shown, as
// Ansible's callback renders it, when the task asks for diffs and the
// module changed something.
func TestLibraryModuleDiff(t *testing.T) {
	body := "#!/bin/sh\n# WANT_JSON\nprintf '%s\\n' '{\"changed\": true, \"diff\": {\"before\": \"a\\n\", \"after\": \"b\\n\"}}'\n"
	env, _ := libraryEnv(t, "d", body, nil)
	res, err := libraryModule{}.Run(context.Background(), env, tasks.Args{})
	if err != nil || res.Diff != "" {
		t.Errorf("without --diff: %q %v", res.Diff, err)
	}
	env.Diff = true
	res, err = libraryModule{}.Run(context.Background(), env, tasks.Args{})
	if err != nil || res.Diff != "--- before\n+++ after\n@@ -1 +1 @@\n-a\n+b\n\n" {
		t.Errorf("with --diff: %q %v", res.Diff, err)
	}
}
