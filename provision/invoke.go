package provision

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
)

// invoke runs t's module once on h (with until/retries), in scope, and
// applies changed_when and failed_when.
func (pr *playRun) invoke(ctx context.Context, h *hostRun, t *playbooks.Task, kw keywords, scope *expr.Vars) outcome {
	switch e := pr.rn.engine(t); {
	case e.GathersFacts():
		return pr.setup(ctx, h, t, kw, scope)
	case e.Reconnects():
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
			if retries, err = intField(t, "retries", t.Retries, scope); errors.Is(err, errOmitted) {
				retries = 3
			} else if err != nil {
				return failure(err)
			}
		}
		if retries < 0 {
			retries = 0
		}
		if t.Delay != nil {
			d, err := intField(t, "delay", t.Delay, scope)
			if errors.Is(err, errOmitted) {
				d = 5
			} else if err != nil {
				return failure(err)
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
			res, err = pr.runAsync(mctx, t.Module, pr.rn.traits(t), c.mod, c.env, c.args, limit, poll)
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
			if ae.Exception != "" {
				out = unexpectedFailure(ae.Exception, ae.Msg)
			}
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
			res, err = tasks.Result{Failed: true, Msg: tasks.AsWritten(err, t.Action).Error(), Data: map[string]any{}}, nil
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
		done, err := pr.holds(t.Until, pr.condScope(t, scope, out.data))
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
		if per, _ := st["per_host"].(bool); per && pr.onceFacts != nil {
			// run_once: every reachable play host's, as its facts.
			for _, o := range pr.hosts {
				if o != h && !o.unreachable {
					pr.rn.customStats(o.name, st)
				}
			}
		}
	}
	f, ok := out.data["ansible_facts"].(map[string]any)
	switch {
	case !ok || pr.rn.traits(t).Shows:
	case h.loopFacts != nil:
		// A loop item's facts, even a failed one's: see loop.
		*h.loopFacts = append(*h.loopFacts, loopFact{t: t, kw: kw, facts: f})
	case !out.failed:
		if err := pr.applyFacts(h, t, kw, f); err != nil {
			return failure(err)
		}
	}
	return out
}

// applyFacts makes the facts f a run of t returned the host's. As
// Ansible: facts a module returns join ansible_facts, but set_fact's only
// when cacheable, and include_vars' never.
func (pr *playRun) applyFacts(h *hostRun, t *playbooks.Task, kw keywords, f map[string]any) error {
	tr := pr.rn.traits(t)
	persist := !tr.PlayFacts
	if tr.PlayFacts && tr.CacheableArg != "" {
		c, err := tasks.ParseBool(t.Args[tr.CacheableArg])
		persist = err == nil && c
	}
	if !tr.FromPlaybook {
		f = unsafeDeep(f).(map[string]any)
	}
	if kw.delegateTo != "" && kw.delegateFacts {
		// delegate_facts: the facts are the delegate's.
		d, err := pr.delegateHost(kw.delegateTo)
		if err != nil {
			return err
		}
		h = d
	} else if pr.onceFacts != nil {
		// run_once: every host of the play gets them (see task).
		*pr.onceFacts = append(*pr.onceFacts, onceFact{t: t, persist: persist, facts: f})
	}
	pr.rn.storeFacts(h, t, persist, f)
	return nil
}

// storeFacts makes the facts f a run of t returned h's: include_vars' its
// included variables, any other's its set facts, and its facts proper
// when persist.
func (rn *run) storeFacts(h *hostRun, t *playbooks.Task, persist bool, f map[string]any) {
	included := rn.traits(t).IncludedVars
	for _, k := range pydict.Keys(f) {
		v := f[k]
		if included {
			pydict.Set(h.includedVars, k, v)
			continue
		}
		pydict.Set(h.setFacts, k, v)
		if persist {
			pydict.Set(h.moduleFacts, k, v)
		}
	}
	if persist && !included {
		h.refreshFacts()
	} else {
		h.refresh()
	}
	if persist && !included && len(f) > 0 {
		rn.cacheFacts(h)
	}
}

// onceFact is the facts a run_once task gave its host, which the play's
// other hosts get too.
type onceFact struct {
	t       *playbooks.Task
	persist bool
	facts   map[string]any
}

// loopFact is the facts one run of a loop's item returned.
type loopFact struct {
	t     *playbooks.Task
	kw    keywords
	facts map[string]any
}

// asyncRefusal is Ansible's failure for a task with async: (limit > 0)
// that cannot run in the background: its action does not support async
// (traits.NoAsync), or check mode is on. Empty when the
// task may run.
func asyncRefusal(traits tasks.Traits, t *playbooks.Task, limit int, check bool) string {
	switch {
	case limit <= 0:
		return ""
	case traits.NoAsync:
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
	if limit, err = intField(t, "async", t.Async, scope); errors.Is(err, errOmitted) {
		return 0, 0, nil
	} else if err != nil {
		return 0, 0, err
	}
	poll = 15
	if t.Poll != nil {
		if poll, err = intField(t, "poll", t.Poll, scope); errors.Is(err, errOmitted) {
			poll = 15
		} else if err != nil {
			return 0, 0, err
		}
	}
	return limit, poll, nil
}

// condScope is the scope of t's changed_when, failed_when and until for
// the result data: as Ansible's, the facts of set_fact and include_vars,
// then the registered result, are variables there.
func (pr *playRun) condScope(t *playbooks.Task, scope *expr.Vars, data map[string]any) *expr.Vars {
	extra := map[string]any{}
	if tr := pr.rn.traits(t); tr.FromPlaybook {
		if facts, ok := data["ansible_facts"].(map[string]any); ok {
			for k, v := range facts {
				extra[k] = v
			}
		}
	}
	if t.Register != "" {
		extra[t.Register] = registered(pr.rn.traits(t), data)
	}
	if len(extra) == 0 {
		return scope
	}
	return scope.With(extra)
}

// overrides applies changed_when and failed_when, with the result
// available under the register name as Ansible allows.
func (pr *playRun) overrides(t *playbooks.Task, scope *expr.Vars, out *outcome) error {
	if len(t.ChangedWhen) == 0 && len(t.FailedWhen) == 0 {
		return nil
	}
	s := pr.condScope(t, scope, out.data)
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
		ok, err := pr.condition(c, s)
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
		ok, err := pr.condition(c, s)
		if err != nil {
			return false, conditionError(c, err)
		}
		if ok {
			return true, nil
		}
	}
	return false, nil
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

// condition evaluates one condition in s, with Ansible's warning (at each
// evaluation, as its workers give it) for a condition written as a
// template.
func (pr *playRun) condition(c string, s expr.Scope) (bool, error) {
	if w := expr.ConditionWarning(c); w != "" {
		pr.rn.emit(Event{Kind: Warning, Play: pr.name, Msg: w})
	}
	return expr.Condition(c, s)
}
