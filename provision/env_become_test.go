package provision_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks"
)

// becomeProbe registers whether its task ran through become (it stands
// in for lineinfile, a name the test registry resolves).
type becomeProbe struct{}

func (becomeProbe) Run(_ context.Context, env *tasks.Env, _ tasks.Args) (tasks.Result, error) {
	return tasks.Result{Data: map[string]any{"become": env.Become}}, nil
}

// TestEnvBecome: a module is told whether its task runs through become
// (fetch reads the host differently then, as Ansible's does).
func TestEnvBecome(t *testing.T) {
	sudoDir, _ := fakeSudo(t)
	t.Setenv("PATH", sudoDir+":"+os.Getenv("PATH"))
	out, recap, err := play(t, "h1 ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - lineinfile:
      become: true
      become_user: app
      register: with
    - lineinfile:
      register: without
    - assert:
        that: [with.become, not without.become]
`, func(r *provision.Runner) {
		r.Modules.Register("lineinfile", func() tasks.Module { return becomeProbe{} })
	})
	if err != nil || recap.Stats["h1"].Failed != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "All assertions passed") {
		t.Errorf("%s", out)
	}
}
