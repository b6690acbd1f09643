package modtest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
)

// recordedTask is one task of a task list that a generator script ran
// with ansible-playbook (testdata/gen.sh, testdata/gen_pkg.sh): its name
// (registered as r_<name>), module, arguments, check_mode and diff.
type recordedTask struct {
	Name, module string
	args         tasks.Args
	Check, diff  bool
}

// LoadTaskList reads a task list in the generators' format: a YAML list
// of {name, <module>: args, check_mode, diff}.
func LoadTaskList(t *testing.T, path string) []recordedTask {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	v, err := orderedYAML(&doc)
	if err != nil {
		t.Fatal(err)
	}
	list, _ := v.([]any)
	var out []recordedTask
	for _, x := range list {
		task, _ := x.(map[string]any)
		rt := recordedTask{Name: task["name"].(string), Check: task["check_mode"] == true, diff: task["diff"] == true}
		for k, v := range task {
			if k == "name" || k == "check_mode" || k == "diff" {
				continue
			}
			rt.module = k
			switch a := v.(type) {
			case string:
				rt.args = tasks.Args{"_raw_params": a}
			case map[string]any:
				rt.args = tasks.Args(a)
			}
		}
		out = append(out, rt)
	}
	return out
}

// orderedYAML decodes n as yaml.Unmarshal decodes into an any, with
// each mapping's keys kept in the order written (pydict), as Ansible keeps
// them: some modules' results depend on it (expect's responses).
func orderedYAML(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return orderedYAML(n.Content[0])
	case yaml.AliasNode:
		return orderedYAML(n.Alias)
	case yaml.SequenceNode:
		out := []any{}
		for _, c := range n.Content {
			v, err := orderedYAML(c)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		b := pydict.NewBuilder(len(n.Content) / 2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			var k any
			if err := n.Content[i].Decode(&k); err != nil {
				return nil, err
			}
			v, err := orderedYAML(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			b.Set(fmt.Sprint(k), v)
		}
		return b.Map(), nil
	}
	// A scalar reads as Ansible's YAML 1.1 loader reads it (on, yes,
	// 0644), as a playbook's would.
	return yaml11.Value(n)
}

// markData marks every string of args but those of the parameters module
// d evaluates.
func markData(d tasks.Def, args tasks.Args) tasks.Args {
	code := map[string]bool{d.Traits.UntemplatedArg: true}
	if s := d.Spec(); s != nil {
		for _, p := range s.Params {
			if p.Marked {
				code[p.Name] = true
				for _, a := range p.Aliases {
					code[a] = true
				}
			}
		}
	}
	out := tasks.Args{}
	for k, v := range args {
		if !code[k] {
			v = yaml11.Mark(v)
		}
		out[k] = v
	}
	return out
}

// RunRecorded renders task's arguments in scope, runs its module with env
// (in check mode when the task asks) and returns what register: would
// store. A module's error return (bad arguments) becomes a failed result
// whose msg is the error's text without tender's "Did you mean" hint, as
// the engine reports it.
func RunRecorded(t *testing.T, env *tasks.Env, scope *expr.Vars, task recordedTask) map[string]any {
	t.Helper()
	return runRecorded(t, env, scope, task, false)
}

// runRecorded is RunRecorded; with marked, every string of the rendered
// arguments is marked as a host's data would be, but for the parameters
// the module evaluates (Param.Marked): the module must do with marked data
// exactly what it does with plain.
func runRecorded(t *testing.T, env *tasks.Env, scope *expr.Vars, task recordedTask, marked bool) map[string]any {
	t.Helper()
	rendered, err := expr.RenderDeep(map[string]any(task.args), scope)
	if err != nil {
		t.Fatalf("%s: %v", task.Name, err)
	}
	d, ok := modules.Def(task.module)
	if !ok {
		t.Fatalf("%s: no module %s", task.Name, task.module)
	}
	f := d.New
	env.Check = task.Check
	args := tasks.Args(rendered.(map[string]any))
	if marked {
		args = markData(d, args)
	}
	se := tasks.ScopeEnv(args, scope)
	env.Eval, env.Condition, env.Template, env.Render, env.RenderFile = se.Eval, se.Condition, se.Template, se.Render, se.RenderFile
	res, err := f().Run(context.Background(), env, args)
	if err != nil {
		msg, _, _ := strings.Cut(tasks.AsWritten(err, task.module).Error(), " Did you mean")
		res = tasks.Result{Failed: true, Msg: msg}
	}
	return Registered(res)
}
