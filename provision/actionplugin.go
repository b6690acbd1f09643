package provision

import (
	"context"
	"fmt"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
)

// ActionPluginRunner runs the action plugins that ship with the content
// (action_plugins/) or with a collection: Python written for Ansible's
// controller, which needs a Python runtime of Ansible's (see
// playbooks/pyplugins). Give one to Runner.ActionPlugins; without it a
// task naming one fails, saying so.
type ActionPluginRunner interface {
	RunActionPlugin(ctx context.Context, call ActionPluginCall) (map[string]any, error)
}

// ActionPluginCall is one host's run of an action plugin.
type ActionPluginCall struct {
	// Action is the task's action as written, File the plugin's file.
	Action, File string
	// Args are the task's arguments, rendered; Vars the variables of the
	// task on the host (hostvars and vars left out).
	Args, Vars map[string]any
	// Check and Diff are the task's check and diff modes.
	Check, Diff bool
	Verbosity   int
	// BaseDir is the playbook's directory; CollectionRoots the run's
	// ansible_collections directories.
	BaseDir         string
	CollectionRoots []string
	// Conn is the host's connection for the task (its become applied):
	// the plugin's commands and transfers go through it.
	Conn transport.Conn
}

// actionPluginModule runs t's action plugin through the runner.
type actionPluginModule struct {
	runner ActionPluginRunner
	call   ActionPluginCall
}

func (m actionPluginModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	c := m.call
	c.Args, c.Conn, c.Check, c.Diff, c.Verbosity = args, env.Conn, env.Check, env.Diff, env.Verbosity
	data, err := m.runner.RunActionPlugin(ctx, c)
	if err != nil {
		return tasks.Result{}, err
	}
	res := tasks.ResultOf(data, false)
	res.ShowDiff(c.Diff)
	return res, nil
}

// actionPlugin makes the module that runs t's action plugin on a host,
// with the task's variables in scope.
func (pr *playRun) actionPlugin(t *playbooks.Task, scope *expr.Vars) (tasks.Module, error) {
	r := pr.rn.r.ActionPlugins
	if r == nil {
		return nil, fmt.Errorf("%s is an action plugin (%s): Python code that runs inside Ansible's controller, which this run does not run", t.Action, t.ActionPlugin)
	}
	return actionPluginModule{runner: r, call: ActionPluginCall{Action: t.Action, File: t.ActionPlugin, Vars: expr.Variables(scope),
		BaseDir: pr.rn.pb.Dir, CollectionRoots: t.CollectionRoots}}, nil
}
