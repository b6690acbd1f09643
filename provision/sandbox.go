package provision

import (
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/vault"
)

// exprEnv is what the run's expressions reach on the controller: the
// playbook directory, the sandbox, check mode (the password lookup
// stores nothing), the run's configuration (the config lookup; a task's
// scope refines it, lookupEnv), the limits of each evaluation and done,
// which stops an evaluation. The pipe and lines lookups run commands on
// the controller, as Ansible's do; a sandbox allows them only with
// local: true (Policy.Validate). Vault opens vaulted files with the
// run's Decrypt.
func (rn *run) exprEnv(done <-chan struct{}) *expr.Env {
	env := &expr.Env{BaseDir: rn.pb.Dir, NoWrite: rn.r.Check, Done: done, AllowCommands: true, Config: rn.r.config(),
		Vault: vault.Templates{Open: rn.r.Decrypt}, Limits: rn.r.TemplateLimits, Native: rn.r.Jinja2Native}
	if rn.r.Sandbox != nil {
		env.Sandbox = rn.r.Sandbox
	}
	if rn.plugins != nil {
		env.Plugins = rn.plugins
	}
	return env
}

// vetted is t with the run's sandbox, if any, as the vetter of the
// controller files the connection would use because of t (its key
// files, the files its ssh arguments name): a file the playbook may not
// read fails the connection with the policy's denial.
func (r *Runner) vetted(t transport.Target) transport.Target {
	if r.Sandbox != nil {
		t.Files = r.Sandbox
	}
	return t
}

// playVars is a scope over layers for what is rendered outside any
// host's scope (a play's hosts, vars_files, vars_prompt), under the
// run's Env.
func (rn *run) playVars(done <-chan struct{}, layers ...map[string]any) *expr.Vars {
	v := expr.NewVars(layers...)
	v.Merge = rn.r.HashMerge
	v.Env = rn.exprEnv(done)
	return v
}
