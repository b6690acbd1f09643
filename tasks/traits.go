package tasks

// Traits say how the engine treats a module beyond running it: the rules
// Ansible gives some of its action plugins. They are part of the
// module's Def. The zero Traits are most modules': it runs once per
// host, its arguments are templated as any, what it returns came from
// the host.
type Traits struct {
	// BypassHostLoop: the task runs once (once per loop item), on the
	// first host of the batch, whatever the play's hosts, as Ansible's
	// add_host and pause.
	BypassHostLoop bool
	// SetsVars: the arguments are variables to set (set_fact): templated
	// names are rendered, and values reach the module as the template
	// gave them, unsafe marks kept.
	SetsVars bool
	// FromPlaybook: what the module returns comes from the playbook, not
	// from the host, so its result and facts are not marked unsafe
	// (set_fact, include_vars). A failed result always is.
	FromPlaybook bool
	// PlayFacts: the facts it returns are the host's for the rest of the
	// run but do not join the facts a later setup keeps (include_vars);
	// with CacheableArg set, only when that boolean argument is false
	// (set_fact's cacheable).
	PlayFacts    bool
	CacheableArg string
	// UntemplatedArg names an argument the engine passes as the task
	// wrote it, not templated: the module renders and evaluates it itself
	// through Env.Condition (assert's that, as Ansible's assert reads its
	// untemplated arguments).
	UntemplatedArg string
	// DetachedAsync: under async, the module's one script runs detached
	// on the host, so its job outlives the run, as Ansible's (command,
	// shell). Any other module's job runs on the controller beside the
	// play for as long as the run lasts.
	DetachedAsync bool
	// IncludedVars: the facts it returns are included variables, with
	// include_vars' place in variable precedence (above set_fact), not
	// facts the host set (include_vars).
	IncludedVars bool
	// NoAsync: Ansible runs the module through an action plugin that
	// does not support async (script, raw, copy, template, fetch, debug,
	// ...): a task with async: fails with "async is not supported for
	// this task." instead of running.
	NoAsync bool
	// Action: an Ansible action plugin that runs on the controller and no
	// module (debug, set_fact, add_host, ...): the errors it returns are
	// its refusals (AnsibleActionFail), the task's result at once, which
	// changed_when and failed_when do not judge. A module's errors are
	// its failed result, which they judge.
	Action bool
	// Controller: the action runs on the controller alone and never
	// uses the host's connection (debug, set_fact, assert, …), so none
	// is made for it: as in Ansible, it works on a host, or for a
	// delegate, that cannot be reached.
	Controller bool
	// Shows: its result is what it shows (debug). An ansible_facts key
	// in it is shown, not facts it returns (debug var=ansible_facts:
	// Ansible's strategy takes no facts from debug's results), and
	// reporters print it as Ansible's callbacks print debug's.
	Shows bool
	// TextOutput: the ansible command prints its result as the output it
	// captured rather than as JSON (Ansible's MODULE_NO_JSON: command,
	// shell, raw).
	TextOutput bool
}
