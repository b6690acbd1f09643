package provision

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/provision/facts"
	"github.com/tender-sh/tender/provision/transport"
	"github.com/tender-sh/tender/tasks"
)

// invoke runs t's module once on h (with until/retries), in scope, and
// applies changed_when and failed_when.
func (pr *playRun) invoke(ctx context.Context, h *hostRun, t *playbooks.Task, kw keywords, scope *expr.Vars) outcome {
	if t.Module == "setup" || t.Module == "gather_facts" {
		return pr.setup(ctx, h, t, kw, scope)
	}
	if reconnectActions[t.Module] {
		return pr.settle(h, t, kw, scope, pr.judgeOutcome(t, scope, pr.reconnectAction(ctx, h, t, kw, scope)))
	}
	c, err := pr.prepare(ctx, h, t, kw, scope)
	if err != nil {
		return prepareFailure(err)
	}
	limit, poll, err := asyncKeywords(t, scope)
	if err != nil {
		return failure(err)
	}
	if msg := asyncRefusal(pr.rn.traits(t), t, limit, kw.check); msg != "" {
		out, err := pr.judge(t, scope, tasks.Result{Failed: true, Msg: msg, Data: map[string]any{}})
		if err != nil {
			return failure(err)
		}
		return out
	}
	// As Ansible: with until, retries (default 3) more runs after the
	// first; retries of 0 or less is one run, until not evaluated.
	retries, delay := 0, 5*time.Second
	if len(t.Until) > 0 {
		retries = 3
		if t.Retries != nil {
			if retries, err = intArg(t.Retries, scope); errors.Is(err, errOmitted) {
				retries = 3
			} else if err != nil {
				return failure(fmt.Errorf("retries: %w", err))
			}
		}
		if retries < 0 {
			retries = 0
		}
		if t.Delay != nil {
			d, err := intArg(t.Delay, scope)
			if errors.Is(err, errOmitted) {
				d = 5
			} else if err != nil {
				return failure(fmt.Errorf("delay: %w", err))
			}
			delay = time.Duration(d) * time.Second
		}
	}
	var out outcome
	for attempt := 1; ; attempt++ {
		var res tasks.Result
		mctx, cancel := ctx, context.CancelFunc(func() {})
		if kw.timeout > 0 {
			// The task's timeout: its module is stopped when it runs longer.
			mctx, cancel = context.WithTimeout(ctx, time.Duration(kw.timeout)*time.Second)
		}
		if limit > 0 {
			res, err = pr.runAsync(mctx, t.Module, c.mod, c.env, c.args, limit, poll)
		} else {
			res, err = c.mod.Run(mctx, c.env, c.args)
		}
		timedOut := kw.timeout > 0 && errors.Is(mctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
		cancel()
		if timedOut {
			return outcome{failed: true, data: map[string]any{"changed": false, "failed": true,
				"msg":      fmt.Sprintf("The %s action failed to execute in the expected time frame (%d) and was terminated", t.Action, kw.timeout),
				"timedout": map[string]any{"period": kw.timeout}}}
		}
		if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return failure(errStopped)
		}
		var ae *tasks.ActionError
		switch {
		case errors.As(err, &ae):
			// An action's own failure: no changed, and raised, it ends
			// a loop too (outcome.abort).
			out := failure(err)
			out.abort = true
			return out
		case errors.Is(err, transport.ErrUnreachable):
			return failure(err)
		case err != nil && pr.rn.traits(t).Action:
			// An action's refusal (Traits.Action): the result at once.
			out := failure(err)
			out.data["changed"] = false
			return out
		case err != nil:
			// The module's own failure (its arguments refused, say) is
			// a result like any other: changed: false, and changed_when
			// and failed_when judge it, as Ansible's.
			res, err = tasks.Result{Failed: true, Msg: err.Error(), Data: map[string]any{}}, nil
		}
		if retries > 0 {
			// attempts is there for changed_when and failed_when too.
			if res.Data == nil {
				res.Data = map[string]any{}
			}
			res.Data["attempts"] = attempt
		}
		if out, err = pr.judge(t, scope, res); err != nil {
			return failure(err)
		}
		if retries == 0 {
			break
		}
		done, err := pr.holds(t.Until, scope.With(map[string]any{t.Register: registered(pr.rn.traits(t), out.data)}))
		if err != nil {
			return failure(err)
		}
		if done {
			break
		}
		if attempt > retries {
			// Out of attempts: failed, and attempts says the retries, as
			// Ansible reports it; a failed_when, though, has the last word
			// on whether the task failed.
			out.data["failed"] = true
			out.data["attempts"] = retries
			if fw, ok := out.data["failed_when_result"].(bool); ok {
				out.failed = fw
			} else {
				out.failed = true
			}
			break
		}
		pr.rn.emit(Event{Kind: Retry, Play: pr.name, Task: pr.shownName(h, t), Host: h.name, Delegate: kw.delegateTo,
			RetriesLeft: retries + 1 - attempt})
		select {
		case <-ctx.Done():
			return failure(errStopped)
		case <-time.After(delay):
		}
	}
	return pr.settle(h, t, kw, scope, out)
}

// call is a module ready to run once on a host: the module, its rendered
// arguments and its environment.
type call struct {
	mod  tasks.Module
	env  *tasks.Env
	args tasks.Args
	via  connSpec // what the connection adds to the host's (become, environment)
}

// factory returns the module t runs (async_status is the engine's own).
func (pr *playRun) factory(t *playbooks.Task) (tasks.Factory, error) {
	if t.Module == "async_status" {
		return func() tasks.Module { return statusModule{pr} }, nil
	}
	if t.ActionPlugin != "" {
		return nil, fmt.Errorf("%s is an action plugin (%s): Python code that runs inside Ansible's controller, which tender cannot run", t.Action, t.ActionPlugin)
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
			args.Set(k, v)
		}
	}
	argMap := tasks.Args(args.Map())
	if kw.noLog {
		pr.rn.r.NoLogValues.AddValue(map[string]any(argMap))
	}
	var conn transport.Conn
	var via connSpec
	if !tr.Controller {
		if conn, via, err = pr.conn(ctx, h, kw, scope); err != nil {
			return call{}, atTask(t, err)
		}
	}
	env := tasks.ScopeEnv(argMap, scope)
	env.Host, env.Conn, env.Check, env.Diff, env.Verbosity = h.name, conn, kw.check, kw.diff, pr.rn.r.Verbosity
	env.FindFile = pr.findFile(t)
	env.Sandbox, env.Decrypt, env.Modules = pr.rn.r.Sandbox, pr.rn.r.Decrypt, pr.rn.r.Modules
	env.Action, env.ModuleFile, env.Become = t.Action, t.ModuleFile, via.become != nil
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

// judge turns a module's result into t's outcome, with changed_when and
// failed_when applied.
func (pr *playRun) judge(t *playbooks.Task, scope *expr.Vars, res tasks.Result) (outcome, error) {
	out := outcome{changed: res.Changed, failed: res.Failed, skipped: res.Skipped,
		verbose: res.Show || pr.rn.r.Verbosity > 0, indent: res.Show || pr.rn.r.Verbosity > 2,
		diff: res.Diff, warnings: res.Warnings,
		data: resultData(res.Data, res.Changed, res.Failed, res.Msg)}
	if res.Skipped {
		out.data["skipped"] = true
	}
	if len(res.Warnings) > 0 {
		// Kept in the result, as Ansible's register has them.
		w := make([]any, len(res.Warnings))
		for i, s := range res.Warnings {
			w[i] = s
		}
		out.data["warnings"] = w
	}
	return out, pr.overrides(t, scope, &out)
}

// judgeOutcome applies changed_when and failed_when to an engine
// action's outcome.
func (pr *playRun) judgeOutcome(t *playbooks.Task, scope *expr.Vars, out outcome) outcome {
	if out.data == nil {
		out.data = map[string]any{}
	}
	if err := pr.overrides(t, scope, &out); err != nil {
		return failure(err)
	}
	return out
}

// settle applies what a finished module run asks of the host: inventory
// changes (add_host, group_by), custom stats and facts. As Ansible's
// strategy does, an inventory change's result says whether the inventory
// changed, and changed_when and failed_when are evaluated again on it.
func (pr *playRun) settle(h *hostRun, t *playbooks.Task, kw keywords, scope *expr.Vars, out outcome) outcome {
	if !out.failed && inventoryResult(out.data) {
		changed, err := pr.applyInventory(h, out.data)
		if err != nil {
			return failure(err)
		}
		out.changed = changed
		out.data["changed"] = changed
		if err := pr.overrides(t, scope, &out); err != nil {
			return failure(err)
		}
	}
	if st, ok := out.data["ansible_stats"].(map[string]any); ok && !out.failed {
		pr.rn.customStats(h.name, st)
	}
	// As Ansible: facts a module returns join ansible_facts, but set_fact's
	// only when cacheable, and include_vars' never.
	tr := pr.rn.traits(t)
	persist := !tr.PlayFacts
	if tr.PlayFacts && tr.CacheableArg != "" {
		c, err := tasks.ParseBool(t.Args[tr.CacheableArg])
		persist = err == nil && c
	}
	if f, ok := out.data["ansible_facts"].(map[string]any); ok && !out.failed {
		if !tr.FromPlaybook {
			f = unsafeDeep(f).(map[string]any)
		}
		if kw.delegateTo != "" && kw.delegateFacts {
			// delegate_facts: the facts are the delegate's.
			d, err := pr.delegateHost(kw.delegateTo)
			if err != nil {
				return failure(err)
			}
			h = d
		}
		for _, k := range pydict.Keys(f) {
			v := f[k]
			if t.Module == "include_vars" {
				pydict.Set(h.includedVars, k, v)
				continue
			}
			pydict.Set(h.setFacts, k, v)
			if persist {
				pydict.Set(h.moduleFacts, k, v)
			}
		}
		h.refresh()
	}
	return out
}

// asyncRefusal is Ansible's failure for a task with async: (limit > 0)
// that cannot run in the background: its action does not support async
// (traits.NoAsync, async_status), or check mode is on. Empty when the
// task may run.
func asyncRefusal(traits tasks.Traits, t *playbooks.Task, limit int, check bool) string {
	switch {
	case limit <= 0:
		return ""
	case traits.NoAsync || t.Module == "async_status":
		return "async is not supported for this task."
	case check:
		return "check mode and async cannot be used on same task."
	}
	return ""
}

// asyncKeywords renders async: (seconds, 0 for none) and poll: (seconds,
// 15 when not given, as Ansible's default).
func asyncKeywords(t *playbooks.Task, scope *expr.Vars) (limit, poll int, err error) {
	if t.Async == nil {
		return 0, 0, nil
	}
	if limit, err = intArg(t.Async, scope); errors.Is(err, errOmitted) {
		return 0, 0, nil
	} else if err != nil {
		return 0, 0, fmt.Errorf("async: %w", err)
	}
	poll = 15
	if t.Poll != nil {
		if poll, err = intArg(t.Poll, scope); errors.Is(err, errOmitted) {
			poll = 15
		} else if err != nil {
			return 0, 0, fmt.Errorf("poll: %w", err)
		}
	}
	return limit, poll, nil
}

// overrides applies changed_when and failed_when, with the result
// available under the register name as Ansible allows.
func (pr *playRun) overrides(t *playbooks.Task, scope *expr.Vars, out *outcome) error {
	if len(t.ChangedWhen) == 0 && len(t.FailedWhen) == 0 {
		return nil
	}
	// As Ansible's: the facts of set_fact and include_vars, then the
	// registered result, are variables of changed_when and failed_when.
	extra := map[string]any{}
	if tr := pr.rn.traits(t); tr.FromPlaybook {
		if facts, ok := out.data["ansible_facts"].(map[string]any); ok {
			for k, v := range facts {
				extra[k] = v
			}
		}
	}
	if t.Register != "" {
		extra[t.Register] = registered(pr.rn.traits(t), out.data)
	}
	s := scope
	if len(extra) > 0 {
		s = scope.With(extra)
	}
	// A condition that cannot be evaluated fails the task, keeping the
	// module's result, with the error as the condition's result, as in
	// Ansible.
	if len(t.ChangedWhen) > 0 {
		v, err := pr.holds(t.ChangedWhen, s)
		if err != nil {
			out.failed = true
			out.data["failed"] = true
			out.data["changed_when_result"] = err.Error()
			return nil
		}
		out.changed = v
		out.data["changed"] = v
	}
	if len(t.FailedWhen) > 0 {
		v, err := pr.anyHolds(t.FailedWhen, s)
		if err != nil {
			out.failed = true
			out.data["failed"] = true
			out.data["failed_when_result"] = err.Error()
			return nil
		}
		out.failed = v
		out.data["failed"] = v
		out.data["failed_when_result"] = v
	}
	return nil
}

// holds is true when every condition holds (changed_when, until: a list
// means AND); anyHolds when one does (failed_when: a list means OR).
func (pr *playRun) holds(conds []string, s expr.Scope) (bool, error) {
	for _, c := range conds {
		ok, err := expr.Condition(c, s)
		if err != nil {
			return false, conditionError(c, err)
		}
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

func (pr *playRun) anyHolds(conds []string, s expr.Scope) (bool, error) {
	for _, c := range conds {
		ok, err := expr.Condition(c, s)
		if err != nil {
			return false, conditionError(c, err)
		}
		if ok {
			return true, nil
		}
	}
	return false, nil
}

// intArg reads an integer keyword as Ansible's int attributes do
// (Python's int()): a number is truncated, a string must be an integer.
func intArg(v any, scope expr.Scope) (int, error) {
	r, err := expr.RenderDeep(v, scope)
	if err != nil {
		return 0, err
	}
	if expr.IsOmit(r) {
		return 0, errOmitted
	}
	switch x := r.(type) {
	case int:
		return x, nil
	case *big.Int:
		return 0, fmt.Errorf("%v is out of range", x)
	case float64:
		if x > 1e15 || x < -1e15 {
			return 0, fmt.Errorf("%v is out of range", x)
		}
		return int(x), nil
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(expr.Str(r)))
	if err != nil {
		return 0, fmt.Errorf("%s is not an integer", expr.Repr(r))
	}
	return n, nil
}

// factsGathered is the fact Ansible's gather_facts adds to ansible_facts
// (and only there).
const factsGathered = "_ansible_facts_gathered"

// setup gathers facts on h (the setup module, or gather_facts) over the
// connection a task with keywords kw uses: through become when it has
// become, as Ansible runs setup, so that ansible_user_id, ansible_env and
// the other facts of the user name the become user.
func (pr *playRun) setup(ctx context.Context, h *hostRun, t *playbooks.Task, kw keywords, scope *expr.Vars) outcome {
	o, err := setupOptions(t, scope)
	if err != nil {
		return failure(err)
	}
	c, _, err := pr.conn(ctx, h, kw, scope)
	if err != nil {
		return failure(err)
	}
	gctx, cancel := context.WithTimeout(ctx, facts.Timeout(o.Int("gather_timeout")))
	f, err := facts.GatherWith(gctx, c, facts.ScriptFor(o.Str("fact_path")))
	cancel()
	if err != nil {
		if gctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
			err = fmt.Errorf("gathering facts took longer than gather_timeout (%d s) allows, with %s for mounts", o.Int("gather_timeout"), facts.MountTimeout)
		}
		return failure(err)
	}
	if f, err = facts.Subset(f, o.Strings("gather_subset")); err != nil {
		return failure(err)
	}
	f = facts.Filter(f, o.Strings("filter"))
	// As Ansible: the facts of a delegated setup are the task's host's
	// unless delegate_facts says they are the delegate's.
	if kw.delegateTo != "" && kw.delegateFacts {
		if h, err = pr.delegateHost(kw.delegateTo); err != nil {
			return failure(err)
		}
	}
	// As Ansible: what setup returns joins the facts the host has, a
	// subset or a filter leaving the others as they were.
	got := unsafeDeep(f).(map[string]any)
	merged := maps.Clone(h.facts)
	if merged == nil {
		merged = map[string]any{}
	}
	maps.Copy(merged, got)
	if t.Module == "gather_facts" || t.Action == "gather_facts" {
		// The play's fact gathering and the gather_facts module mark
		// the facts gathered (setup does not), as Ansible's do.
		merged[factsGathered] = true
	}
	h.facts = merged
	h.gathered = true
	h.refresh()
	// The result holds the facts as setup returns them (ansible_<name>),
	// which register keeps.
	return outcome{data: map[string]any{"changed": false, "failed": false, "ansible_facts": setupFacts(got)}}
}

// setupFacts are facts as setup returns them: ansible_<name>, but for the
// few it returns under their own names (gather_subset, module_setup).
func setupFacts(gathered map[string]any) map[string]any {
	out := make(map[string]any, len(gathered))
	for k, v := range gathered {
		if facts.Unprefixed(k) {
			out[k] = v
		} else {
			out["ansible_"+k] = v
		}
	}
	return out
}

// gather runs fact gathering as ansible-playbook's "Gathering Facts" task,
// with the play's keywords (become, environment).
func (pr *playRun) gather(ctx context.Context, hosts []*hostRun) {
	t := &playbooks.Task{Name: "Gathering Facts", Module: "setup", Action: "gather_facts", Pos: pr.play.Pos, Args: pr.gatherArgs()}
	pr.rn.emit(Event{Kind: TaskStart, Play: pr.name, Task: t.Name, Path: t.Pos.String()})
	pr.forEach(hosts, func(h *hostRun) {
		scope := pr.scope(h, nil, nil)
		var out outcome
		if ok, err := pr.conditionsHold(h, t, nil); err != nil {
			out = failure(err)
		} else if !ok {
			out = skippedByCondition() // an import_playbook's when: that does not hold
		} else if kw, err := pr.resolve(t, scope); err != nil {
			out = failure(err)
		} else {
			out = pr.setup(ctx, h, t, kw, scope)
		}
		pr.finish(h, t, keywords{}, out, false, nil)
	})
}

// findFile resolves a controller file for copy/template/script the way
// Ansible searches: the role's kind directory and the role, then the
// playbook's kind directory and the playbook directory.
func (pr *playRun) findFile(t *playbooks.Task) func(kind, name string) (string, error) {
	return func(kind, name string) (string, error) {
		if filepath.IsAbs(name) {
			return name, nil
		}
		var dirs []string
		for _, l := range t.Levels() {
			if l.Role != nil {
				dirs = append([]string{filepath.Join(l.Role.Path, kind), l.Role.Path}, dirs...)
			}
		}
		if t.Pos.File != "" {
			dir := filepath.Dir(t.Pos.File)
			dirs = append(dirs, filepath.Join(dir, kind), dir)
		}
		dirs = append(dirs, filepath.Join(pr.rn.pb.Dir, kind), pr.rn.pb.Dir)
		for _, d := range dirs {
			p := filepath.Join(d, name)
			if err := pr.rn.r.Sandbox.CheckRead(p); err != nil {
				return "", err
			}
			if _, err := os.Stat(p); err == nil {
				return filepath.Abs(p)
			}
		}
		return "", fmt.Errorf("could not find %s in %s/ or beside the playbook (searched %v)", name, kind, dirs)
	}
}
