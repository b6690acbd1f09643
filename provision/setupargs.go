package provision

import (
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/provision/facts"
	"github.com/tender-sh/tender/tasks"
)

// setupSpec is setup's argument specification, as ansible-core 2.14's:
// the engine gathers facts itself, and honours each of them (facts.Subset,
// facts.Filter, facts.ScriptFor, facts.Timeout).
var setupSpec = &tasks.Spec{Module: tasks.EngineDef(tasks.EngineSetup).Name, Params: []tasks.Param{
	{Name: "gather_subset", Kind: tasks.List, Default: []any{"all"}},
	{Name: "gather_timeout", Kind: tasks.Int, Default: facts.DefaultGatherTimeout},
	{Name: "filter", Kind: tasks.List, Default: []any{}},
	{Name: "fact_path", Kind: tasks.Path, Default: facts.DefaultFactPath},
}}

// setupOptions renders and checks the arguments of setup (or of a play's
// fact gathering), as Ansible's setup module takes them.
func setupOptions(t *playbooks.Task, scope *expr.Vars) (tasks.Values, error) {
	rendered, err := expr.RenderDeep(map[string]any(t.Args), scope)
	if err != nil {
		return nil, renderArgsError(t, err)
	}
	args := tasks.Args{}
	for k, v := range rendered.(map[string]any) {
		if !expr.IsOmit(v) {
			args[k] = v
		}
	}
	return setupSpec.Decode(args)
}

// gatherArgs are the setup arguments a play's gather_subset,
// gather_timeout and fact_path keywords give its fact gathering, as
// Ansible passes them to the setup it runs; where the play has none,
// the run's defaults (PlayDefaults: Ansible's DEFAULT_GATHER_SUBSET,
// DEFAULT_GATHER_TIMEOUT and DEFAULT_FACT_PATH settings).
func (pr *playRun) gatherArgs() map[string]any {
	p, d := pr.play, &pr.rn.r.Defaults
	args := map[string]any{}
	switch {
	case p.GatherSubset != nil:
		args["gather_subset"] = p.GatherSubset
	case d.GatherSubset != nil:
		args["gather_subset"] = d.GatherSubset
	}
	switch {
	case p.GatherTimeout != nil:
		args["gather_timeout"] = p.GatherTimeout
	case d.GatherTimeout != nil:
		args["gather_timeout"] = *d.GatherTimeout
	}
	switch {
	case p.FactPath != "":
		args["fact_path"] = p.FactPath
	case d.FactPath != "":
		args["fact_path"] = d.FactPath
	}
	return args
}
