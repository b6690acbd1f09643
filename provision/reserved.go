package provision

import (
	"slices"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/playbooks"
)

// reservedNames are the names Ansible warns about when a play's variables
// use them: the keywords of plays, roles, blocks and tasks, and the
// globals its templates define.
var reservedNames = map[string]bool{}

func init() {
	for _, n := range []string{
		"action", "always", "any_errors_fatal", "args", "async", "async_val", "become", "become_exe",
		"become_flags", "become_method", "become_user", "block", "changed_when", "check_mode", "collections",
		"connection", "debugger", "delay", "delegate_facts", "delegate_to", "diff", "environment", "fact_path",
		"failed_when", "force_handlers", "gather_facts", "gather_subset", "gather_timeout", "handlers", "hosts",
		"ignore_errors", "ignore_unreachable", "local_action", "loop", "loop_control", "loop_with",
		"max_fail_percentage", "module_defaults", "name", "no_log", "notify", "order", "poll", "port",
		"post_tasks", "pre_tasks", "register", "remote_user", "rescue", "retries", "roles", "run_once", "serial",
		"strategy", "tags", "tasks", "throttle", "timeout", "until", "vars_files", "vars_prompt", "when", "with_",
		// template globals
		"cycler", "dict", "joiner", "lipsum", "lookup", "namespace", "now", "q", "query", "range", "undef",
	} {
		reservedNames[n] = true
	}
}

// warnReserved warns, as Ansible does when a play starts, about each
// variable of the play's (its vars, vars_files, roles' defaults and vars,
// extra vars) that uses a reserved name.
func (pr *playRun) warnReserved(p *playbooks.Play) {
	layers := []map[string]any{p.Vars}
	layers = append(layers, pr.varsFiles...)
	for _, r := range p.Roles {
		layers = append(layers, r.Defaults, r.RoleVars)
	}
	layers = append(layers, pr.rn.r.ExtraVars)
	var found []string
	for _, l := range layers {
		for _, k := range pydict.Keys(l) {
			if reservedNames[k] && !slices.Contains(found, k) {
				found = append(found, k)
			}
		}
	}
	slices.Sort(found)
	for _, k := range found {
		pr.rn.emit(Event{Kind: Warning, Play: pr.name, Msg: "Found variable using reserved name: " + k})
	}
}
