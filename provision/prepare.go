package provision

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
)

// call is a module ready to run once on a host: the module, its rendered
// arguments and its environment.
type call struct {
	mod  tasks.Module
	env  *tasks.Env
	args tasks.Args
	via  connSpec // what the connection adds to the host's (become, environment)
}

// factory returns the module t runs (async_status's is the engine's own).
func (pr *playRun) factory(t *playbooks.Task) (tasks.Factory, error) {
	if pr.rn.engine(t) == tasks.EngineAsyncStatus {
		return func() tasks.Module { return statusModule{pr} }, nil
	}
	if t.ActionPlugin != "" {
		// Made in prepare, with the task's variables (actionPlugin).
		return nil, nil
	}
	if t.ModuleFile != "" {
		f, ok := pr.rn.r.Modules.Lookup(playbooks.LibraryModule)
		if !ok {
			return nil, fmt.Errorf("the module %s ships with the playbook (%s); this run does not allow such modules", t.Action, t.ModuleFile)
		}
		return f, nil
	}
	f, ok := pr.rn.r.Modules.Lookup(t.Module)
	if !ok {
		return nil, fmt.Errorf("the module %s is not available to this run", t.Module)
	}
	return f, nil
}

// prepareFailure is the outcome of a task whose prepare failed: arguments
// that do not render end a loop (outcome.abort), as Ansible's validation
// of the task raises.
func prepareFailure(err error) outcome {
	if class, msg, ok := expr.PythonException(err); ok && !expr.IsValueError(err) {
		// Ansible's worker catches a Python exception of its own (a
		// ZeroDivisionError) while validating the task: the failed
		// result holds it, without a message, and a loop goes on.
		return outcome{failed: true, data: map[string]any{"changed": false, "failed": true,
			"exception": class + ": " + msg + "\n"}}
	}
	var ae *argsError
	if errors.As(err, &ae) {
		return aborting(err)
	}
	return failure(err)
}

// prepare renders t's arguments in scope and connects for it. The
// module gets its arguments with their marks (a value from a host, a
// lookup or !unsafe stays yaml11.Unsafe); the one its Traits name
// UntemplatedArg reaches it as the task wrote it.
func (pr *playRun) prepare(ctx context.Context, h *hostRun, t *playbooks.Task, kw keywords, scope *expr.Vars) (call, error) {
	factory, err := pr.factory(t)
	if err != nil {
		return call{}, err
	}
	tr := pr.rn.traits(t)
	rendered, err := expr.RenderDeep(templatedArgs(t.Args, tr), scope)
	if err != nil {
		return call{}, renderArgsError(t, err)
	}
	own, err := pr.variableParams(t, rendered.(map[string]any))
	if err != nil {
		return call{}, err
	}
	defaults, err := pr.moduleDefaults(t, scope)
	if err != nil {
		return call{}, err
	}
	// module_defaults under the task's own arguments; the arguments keep
	// their order (set_fact's facts keep it), as Ansible's dict update.
	merged := pydict.NewBuilder(len(t.Args) + len(defaults))
	for _, m := range []map[string]any{defaults, own} {
		for _, k := range pydict.Keys(m) {
			merged.Set(k, m[k])
		}
	}
	if v, ok := t.Args[tr.UntemplatedArg]; ok && tr.UntemplatedArg != "" {
		merged.Set(tr.UntemplatedArg, v)
	}
	mergedMap := merged.Map()
	args := pydict.NewBuilder(merged.Len())
	for _, k := range pydict.Keys(mergedMap) {
		v := mergedMap[k]
		if tr.SetsVars && expr.IsTemplate(k) {
			// set_fact's variable names may be templates, as Ansible
			// renders them.
			name, err := expr.Render(k, scope)
			if err != nil {
				return call{}, renderArgsError(t, err)
			}
			k = expr.Str(name)
		}
		if !expr.IsOmit(v) {
			args.Set(k, removeOmit(v))
		}
	}
	argMap := tasks.Args(args.Map())
	if kw.noLog {
		pr.rn.r.NoLogValues.AddValue(map[string]any(argMap))
	}
	var conn transport.Conn
	var via connSpec
	if tr.Controller && kw.delegateTo == "" {
		// As Ansible, a controller's action loads the host's connection
		// plugin too: one that does not exist fails it.
		if kind, err := connectionKind(pr.rn.r.Connections, scope.Lookup, ConnKeywords{Connection: kw.connection}); err == nil {
			var ue *transport.UnknownConnectionError
			if _, _, err := pr.rn.r.Connections.Resolve(kind); errors.As(err, &ue) {
				return call{}, atTask(t, err)
			}
		}
	}
	if !tr.Controller {
		if conn, via, err = pr.conn(ctx, h, kw, scope); err != nil {
			return call{}, atTask(t, err)
		}
	}
	if !tr.Controller {
		pr.moduleUsed(h, t)
	}
	env := tasks.ScopeEnv(argMap, scope)
	env.Host, env.Conn, env.Check, env.Diff, env.Verbosity = h.name, conn, kw.check, kw.diff, pr.rn.r.Verbosity
	env.FindFile = pr.findFile(t)
	env.Sandbox, env.Decrypt, env.Modules = pr.rn.r.Sandbox, pr.rn.r.Decrypt, pr.rn.r.Modules
	env.DuplicateKeys = pr.rn.r.DuplicateKeys
	env.Jinja2Native = pr.rn.r.Jinja2Native
	env.Warn = func(msg string) { pr.rn.warnOnce(Event{Kind: Warning, Play: pr.name, Msg: msg}) }
	env.Action, env.ModuleFile, env.Become = t.Action, t.ModuleFile, via.become != nil
	if pr.rn.r.LiveOutput && !kw.noLog {
		env.Output = pr.liveOutput(h, t)
	}
	env.CollectionRoots = t.CollectionRoots
	cond := env.Condition
	env.Condition = func(c any) (bool, error) {
		// Ansible's warning for a condition written as a template
		// (assert's that), as for when:.
		if w := expr.ConditionWarning(c); w != "" {
			pr.rn.emit(Event{Kind: Warning, Play: pr.name, Msg: w})
		}
		return cond(c)
	}
	if t.ActionPlugin != "" {
		mod, err := pr.actionPlugin(t, scope)
		if err != nil {
			return call{}, err
		}
		return call{mod: mod, env: env, args: argMap, via: via}, nil
	}
	return call{mod: factory(), env: env, args: argMap, via: via}, nil
}

// variableParams applies a task's arguments given as one template
// ("add_host: '{{ data }}'", args: "{{ data }}"), which the loader keeps
// under _variable_params: as Ansible, the rendered dict comes first and
// the task's other arguments update it, with Ansible's warning; anything
// but a dict is an error.
func (pr *playRun) variableParams(t *playbooks.Task, rendered map[string]any) (map[string]any, error) {
	vp, ok := rendered["_variable_params"]
	if !ok {
		return rendered, nil
	}
	m, isMap := vp.(map[string]any)
	if !isMap {
		return nil, fmt.Errorf("invalid or malformed argument: '%s'", expr.Str(vp))
	}
	pr.rn.warnOnce(Event{Kind: Warning, Play: pr.name, Task: t.Name,
		Msg: "Using a variable for a task's 'args' is unsafe in some situations (see https://docs.ansible.com/ansible/devel/reference_appendices/faq.html#argsplat-unsafe)"})
	b := pydict.NewBuilder(len(m) + len(rendered))
	for _, k := range pydict.Keys(m) {
		b.Set(k, m[k])
	}
	for _, k := range pydict.Keys(rendered) {
		if k != "_variable_params" {
			b.Set(k, rendered[k])
		}
	}
	return b.Map(), nil
}

// templatedArgs is args without the one tr leaves untemplated.
func templatedArgs(args map[string]any, tr tasks.Traits) map[string]any {
	if _, ok := args[tr.UntemplatedArg]; !ok || tr.UntemplatedArg == "" {
		return args
	}
	out := maps.Clone(args)
	delete(out, tr.UntemplatedArg)
	return out
}

// moduleUsed says which module runs t on h when it is not plainly
// tender's: a module file (library/, a collection's), as Ansible's -vvv
// names it, or tender's own module standing for a collection's.
func (pr *playRun) moduleUsed(h *hostRun, t *playbooks.Task) {
	msg := ""
	if t.ModuleFile != "" {
		msg = "Using module file " + t.ModuleFile
	} else if coll := collectionOf(t.Action); coll != "" {
		msg = "Using tender's own " + t.Module + " module for " + t.Action + " (" + coll + "'s is not run)"
	}
	if msg != "" {
		pr.rn.emit(Event{Kind: ModuleUsed, Play: pr.name, Task: t.Name, Host: h.name, Msg: msg})
	}
}

// collectionOf is the collection a module name is qualified with, ""
// for an unqualified name and for ansible.builtin's and ansible.legacy's.
func collectionOf(name string) string {
	parts := strings.Split(name, ".")
	if len(parts) < 3 || parts[0] == "ansible" && (parts[1] == "builtin" || parts[1] == "legacy") {
		return ""
	}
	return parts[0] + "." + parts[1]
}
