package pyplugins_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/ctlpython"
	"github.com/tender-sh/tender/internal/pybridge"
	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/playbooks/pyplugins"
	"github.com/tender-sh/tender/tasks/builtin"
)

// load writes files below a new directory and loads its pb.yml, with
// more/ as a collections path.
func load(t *testing.T, files map[string]string) *playbooks.Playbook {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pb, err := playbooks.Load(filepath.Join(dir, "pb.yml"), playbooks.Options{Modules: builtin.Registry(),
		CollectionsPaths: []string{filepath.Join(dir, "more")}})
	if err != nil {
		t.Fatal(err)
	}
	return pb
}

var content = map[string]string{
	"pb.yml": "- hosts: all\n  roles: [r]\n",
	"filter_plugins/mine.py": `
def shout(x, end='!'):
    return x.upper() + end
class FilterModule(object):
    def filters(self):
        return {'shout': shout, 'same': lambda x: x}
`,
	"filter_plugins/broken.py":  "raise RuntimeError('not today')\n",
	"roles/r/tasks/main.yml":    "- debug: {msg: hi}\n",
	"roles/r/test_plugins/t.py": "class TestModule(object):\n    def tests(self):\n        return {'even': lambda x: x % 2 == 0}\n",
	"more/ansible_collections/community/general/plugins/filter/jq.py": `
class FilterModule(object):
    def filters(self):
        return {'json_query': lambda data, q: [d[q] for d in data]}
`,
}

// TestPythonPlugins renders templates that call a playbook's filter, a
// role's test, a collection's filter by its FQCN and by the short name
// ansible-core routes to it, with unsafe text kept unsafe; a plugin file
// that does not load is warned about, once.
func TestPythonPlugins(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("needs python3")
	}
	pb := load(t, content)
	b := pybridge.New("python3")
	defer b.Close()
	var warnings []string
	src := pyplugins.For(b, nil, func(m string) { warnings = append(warnings, m) })(pb)
	vars := expr.NewVars(map[string]any{"u": yaml11.Unsafe("{{ raw }}"), "data": []any{map[string]any{"a": 1}, map[string]any{"a": 2}}})
	vars.Env = &expr.Env{Plugins: src}
	for tmpl, want := range map[string]any{
		"{{ 'hey' | shout }}":                            "HEY!",
		"{{ 'hey' | shout(end='?') }}":                   "HEY?",
		"{{ [1, 2, 3, 4] | select('even') | list }}":     []any{2, 4},
		"{{ 3 is even }}":                                false,
		"{{ data | community.general.json_query('a') }}": []any{1, 2},
		"{{ data | json_query('a') }}":                   []any{1, 2},
	} {
		got, err := expr.Render(tmpl, vars)
		if err != nil || expr.Str(got) != expr.Str(want) {
			t.Errorf("%s = %#v %v, want %#v", tmpl, got, err, want)
		}
	}
	e, err := expr.Parse("u | same")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := e.Eval(vars); err != nil || got != yaml11.Unsafe("{{ raw }}") {
		t.Errorf("unsafe text through a plugin: %#v %v", got, err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "broken.py: RuntimeError: not today") {
		t.Errorf("warnings: %q", warnings)
	}
	if _, err := expr.Render("{{ 'x' | nosuch }}", vars); err == nil || !strings.Contains(err.Error(), `Could not load "nosuch"`) {
		t.Errorf("a filter no one has: %v", err)
	}
}

// TestPythonPluginsRefused: a sandbox that does not allow local
// execution refuses plugin code with its reason, and nothing starts.
func TestPythonPluginsRefused(t *testing.T) {
	pb := load(t, content)
	calls := 0
	src := pyplugins.For(refusing{&calls}, func() error { return errors.New("denied by the policy") }, nil)(pb)
	vars := expr.NewVars(nil)
	vars.Env = &expr.Env{Plugins: src}
	if _, err := expr.Render("{{ 'a' | shout }}", vars); err == nil || !strings.Contains(err.Error(), "the filter shout is Python that runs on the controller: denied by the policy") {
		t.Errorf("refused: %v", err)
	}
	if calls != 0 {
		t.Errorf("the bridge was called %d times", calls)
	}
}

type refusing struct{ calls *int }

func (r refusing) Names(_ context.Context, _ string, _ []pybridge.File) ([]string, []string, error) {
	*r.calls++
	return nil, nil, nil
}

func (r refusing) Call(context.Context, string, string, string, string, string) ([]byte, error) {
	*r.calls++
	return nil, nil
}

func (r refusing) RunLookup(context.Context, pybridge.Lookup) ([]byte, error) {
	*r.calls++
	return nil, nil
}

// TestPythonLookups runs a role's lookup plugin through ansible-core's
// LookupBase with the scope's variables: lookup() joins, query() lists,
// a with_ loop names it, an AnsibleLookupError keeps its message (and
// errors='ignore' silences it), another exception is Ansible's unhandled
// one.
func TestPythonLookups(t *testing.T) {
	if info, err := ctlpython.Load(); err != nil || info.AnsibleDir == "" {
		t.Skip("needs ansible-core on the controller (make test installs it)")
	}
	files := map[string]string{
		"pb.yml":                 "- hosts: all\n  roles: [r]\n",
		"roles/r/tasks/main.yml": "- debug: {msg: '{{ item }}'}\n  with_upper: [x]\n",
		"roles/r/lookup_plugins/upper.py": `
from ansible.plugins.lookup import LookupBase
from ansible.errors import AnsibleLookupError
class LookupModule(LookupBase):
    def run(self, terms, variables=None, **kwargs):
        if kwargs.get('fail'):
            raise AnsibleLookupError('asked to fail')
        if kwargs.get('crash'):
            raise ValueError('crashed')
        return [t.upper() + variables.get('suffix', '') for t in terms]
`,
	}
	pb := load(t, files)
	if got := pb.Plays[0].Roles[0].Tasks[0].Loop.With; got != "upper" {
		t.Fatalf("with_upper: %q", got)
	}
	b := pybridge.New("")
	defer b.Close()
	vars := expr.NewVars(map[string]any{"suffix": "!"})
	vars.Env = &expr.Env{Plugins: pyplugins.For(b, nil, nil)(pb)}
	for tmpl, want := range map[string]string{
		"{{ lookup('upper', 'a', 'b') }}":                        "A!,B!",
		"{{ query('upper', 'a') }}":                              "['A!']",
		"{{ lookup('upper', 'a', fail=true, errors='ignore') }}": "",
	} {
		got, err := expr.Render(tmpl, vars)
		if err != nil || expr.Str(got) != want {
			t.Errorf("%s = %q %v, want %q", tmpl, expr.Str(got), err, want)
		}
	}
	for tmpl, want := range map[string]string{
		"{{ lookup('upper', 'a', fail=true) }}":  "asked to fail",
		"{{ lookup('upper', 'a', crash=true) }}": "An unhandled exception occurred while running the lookup plugin 'upper'. Error was a <class 'ValueError'>, original message: crashed. crashed",
	} {
		if _, err := expr.Render(tmpl, vars); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", tmpl, err, want)
		}
	}
}
