package pyaction_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/ctlpython"
	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/provision/pyaction"
	"github.com/tender-sh/tender/provision/report"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// An action plugin that runs a command itself, runs a module through
// ansible-core's _execute_module (AnsiballZ over tender's connection),
// reads its arguments and variables, and returns an rc that does not fail
// it.
const plugin = `
from ansible.plugins.action import ActionBase

class ActionModule(ActionBase):
    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        low = self._low_level_execute_command('echo low; echo err >&2')
        mod = self._execute_module(module_name='ansible.legacy.command',
                                   module_args={'_raw_params': 'echo %s' % self._task.args['word']},
                                   task_vars=task_vars)
        result.update(low=low['stdout'].strip(), low_err=low['stderr'].strip(), mod=mod['stdout'],
                      greeting=task_vars['greeting'], rc=3, changed=True, check=self._play_context.check_mode)
        return result
`

// TestActionPlugin runs a playbook's action plugin on two hosts (the
// controller, twice) at once through a pool of two bridges, twice each
// with a loop.
func TestActionPlugin(t *testing.T) {
	if info, err := ctlpython.Load(); err != nil || info.AnsibleDir == "" {
		t.Skip("needs ansible-core on the controller (make test installs it)")
	}
	dir := t.TempDir()
	for name, text := range map[string]string{
		"hosts": "here ansible_connection=local ansible_python_interpreter=" + pythonOf(t) + "\n" +
			"there ansible_connection=local ansible_python_interpreter=" + pythonOf(t) + "\n",
		"action_plugins/twice.py": plugin,
		"pb.yml": `- hosts: all
  gather_facts: false
  vars: {greeting: hello}
  tasks:
    - twice: {word: "{{ item }}"}
      loop: [one, two]
      register: out
    - assert:
        that:
          - out.results[0].low == 'low'
          - out.results[0].low_err == 'err'
          - out.results[1].mod == 'two'
          - out.results[0].greeting == 'hello'
          - out.results[0].rc == 3
          - not out.results[0].check
`,
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inv, err := inventory.Load(filepath.Join(dir, "hosts"))
	if err != nil {
		t.Fatal(err)
	}
	pb, err := playbooks.Load(filepath.Join(dir, "pb.yml"), playbooks.Options{Modules: builtin.Registry()})
	if err != nil {
		t.Fatal(err)
	}
	ar := &pyaction.Runner{Size: 2}
	defer ar.Close()
	var out bytes.Buffer
	r := &provision.Runner{Inventory: inv, Modules: builtin.Registry(), Connections: transport.NewConnections().Add("local", local.Dialer{}),
		Events: report.Text(&out, false), ActionPlugins: ar}
	recap, err := r.Run(context.Background(), pb)
	if err != nil || recap.Failed() {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, h := range []string{"here", "there"} {
		if s := recap.Stats[h]; s.Changed != 1 || s.OK != 2 {
			t.Errorf("%s: recap %+v\n%s", h, *s, out.String())
		}
	}

	// Without a runner the task fails, saying why.
	out.Reset()
	r.ActionPlugins = nil
	recap, _ = r.Run(context.Background(), pb)
	if !recap.Failed() || !strings.Contains(out.String(), "is an action plugin") {
		t.Errorf("no runner:\n%s", out.String())
	}
}

// pythonOf is the Python that has ansible-core, which the host (the
// controller itself) runs the module with.
func pythonOf(t *testing.T) string {
	info, err := ctlpython.Load()
	if err != nil {
		t.Fatal(err)
	}
	return info.Python
}
