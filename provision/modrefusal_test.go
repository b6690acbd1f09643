package provision_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin"
)

type refuser struct{}

func (refuser) Run(context.Context, *tasks.Env, tasks.Args) (tasks.Result, error) {
	return tasks.Result{}, errors.New("missing required arguments: path")
}

// TestModuleRefusalIsJudged: a module's refusal of its arguments is its
// failed result, which failed_when and changed_when judge, as
// ansible-playbook does for a module's fail_json (lineinfile: {} with
// failed_when: false is ok); an action's refusal (Traits.Action, Ansible's
// AnsibleActionFail) is the result at once, unjudged.
func TestModuleRefusalIsJudged(t *testing.T) {
	out, recap, err := play(t, "h1 ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - copy: {}
      failed_when: false
      changed_when: true
      register: r
    - debug: msg="{{ r.msg }} {{ r.failed }} {{ r.changed }}"
    - group_by: {}
      failed_when: false
      ignore_errors: true
`, func(r *provision.Runner) {
		reg := &tasks.Registry{}
		debug, _ := builtin.Registry().Def("debug")
		reg.Add(debug)
		// copy stands for a module, group_by for an action.
		reg.Add(tasks.Def{Name: "copy", New: func() tasks.Module { return refuser{} }})
		reg.Add(tasks.Def{Name: "group_by", Traits: tasks.Traits{Action: true}, New: func() tasks.Module { return refuser{} }})
		r.Modules = reg
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"msg": "missing required arguments: path False True"`) {
		t.Errorf("the module's refusal was not judged:\n%s", out)
	}
	if s := recap.Stats["h1"]; s.Changed != 1 || s.Ignored != 1 {
		t.Errorf("recap %+v:\n%s", *s, out)
	}
}
