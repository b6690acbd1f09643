package control

import "github.com/tender-sh/tender/tasks"

// Register adds to r the modules that run on the controller or
// steer the play: debug, fail, assert, set_fact, set_stats, include_vars,
// pause, add_host, group_by, validate_argument_spec and ping.
// All but ping are Ansible action plugins that run on the controller
// (Traits.Action) and do not run with async:.
func Register(r *tasks.Registry) {
	r.Add(tasks.Def{Traits: tasks.Traits{Action: true, Controller: true, NoAsync: true, Shows: true}, New: func() tasks.Module { return debugModule{} }})
	r.Add(tasks.Def{RawParams: true, Traits: tasks.Traits{Action: true, Controller: true, SetsVars: true, FromPlaybook: true, PlayFacts: true, CacheableArg: "cacheable", NoAsync: true}, New: func() tasks.Module { return setFactModule{} }})
	r.Add(tasks.Def{Traits: tasks.Traits{Action: true, Controller: true, NoAsync: true}, New: func() tasks.Module { return failModule{} }})
	r.Add(tasks.Def{Traits: tasks.Traits{Action: true, Controller: true, UntemplatedArg: "that", NoAsync: true}, New: func() tasks.Module { return assertModule{} }})
	// validate_argument_spec runs on the controller; its result is marked
	// unsafe as any module's but set_fact's and include_vars', so it needs
	r.Add(tasks.Def{Traits: tasks.Traits{Action: true, Controller: true, NoAsync: true}, New: func() tasks.Module { return validateArgumentSpecModule{} }})
	r.Module(func() tasks.Module { return pingModule{} })
	r.Add(tasks.Def{RawParams: true, Traits: tasks.Traits{Action: true, Controller: true, FromPlaybook: true, PlayFacts: true, IncludedVars: true, NoAsync: true}, New: func() tasks.Module { return includeVarsModule{} }})
	r.Add(tasks.Def{Traits: tasks.Traits{Action: true, Controller: true, BypassHostLoop: true, NoAsync: true}, New: func() tasks.Module { return pauseModule{} }})
	r.Add(tasks.Def{RawParams: true, Traits: tasks.Traits{Action: true, Controller: true, BypassHostLoop: true, NoAsync: true}, New: func() tasks.Module { return addHostModule{} }})
	r.Add(tasks.Def{RawParams: true, Traits: tasks.Traits{Action: true, Controller: true, NoAsync: true}, New: func() tasks.Module { return groupByModule{} }})
	r.Add(tasks.Def{Traits: tasks.Traits{Action: true, Controller: true, NoAsync: true}, New: func() tasks.Module { return setStatsModule{} }})
}
