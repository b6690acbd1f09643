package provision

import (
	"context"
	"errors"
	"time"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
)

// lookahead makes the first scripts of the tasks that may be sent ahead
// behind the running task on h, over base (see ahead.go); none when the
// running task's outcome may reach them.
func (pr *playRun) lookahead(ctx context.Context, h *hostRun, base transport.Conn) []*aheadEntry {
	st := &h.ahead
	t := st.current
	if t == nil || len(st.next) == 0 || !pr.aheadAllowed() || !pr.chainsAfter(t) {
		return nil
	}
	var out []*aheadEntry
	for _, s := range st.next {
		if len(out) == maxAhead || !pr.canRunAhead(s) {
			break
		}
		if !pr.selected(s) {
			continue // it does not run at all
		}
		e, skipped, ok := pr.capture(ctx, h, s, base)
		if !ok {
			break
		}
		if skipped {
			if s.Register != "" {
				break
			}
			continue
		}
		out = append(out, e)
		if !e.cmd.Final || !pr.chainsAfter(s) {
			break
		}
	}
	return out
}

// aheadAllowed reports whether the play lets tasks be sent ahead at all:
// not with --step (each task is asked for), nor while --start-at-task
// looks for its task, nor under max_fail_percentage (a host's failure
// may end the others' run).
func (pr *playRun) aheadAllowed() bool {
	return pr.rn.r.Step == nil && !pr.rn.startAt.looking() && pr.play.MaxFailPercentage == nil && !pr.stopped()
}

// chainsAfter reports whether nothing of t's outcome but its exit status
// can reach the tasks after it: what is sent behind it then runs when,
// and only when, it would have.
func (pr *playRun) chainsAfter(t *playbooks.Task) bool {
	if t.Kind != playbooks.KindModule || t.Handler || t.Loop != nil || t.Register != "" || len(t.Until) > 0 ||
		len(t.FailedWhen) > 0 || t.Async != nil || !constantCondition(t.ChangedWhen) ||
		pr.rawKeyword(t, anyErrorsFatal) || !pr.plainModule(t) {
		return false
	}
	for _, n := range t.EffectiveNotify() {
		if expr.IsTemplate(n) || len(pr.handlers.notified(n)) == 0 {
			return false
		}
	}
	for _, kw := range pr.keywordLevels(t) {
		if kw.DelegateTo != "" || kw.RunOnce.Set {
			return false
		}
	}
	return true
}

// canRunAhead reports whether s's first script may be made and sent
// before its turn: a module on the host's own connection, once, with no
// keyword that changes when or where it runs.
func (pr *playRun) canRunAhead(s *playbooks.Task) bool {
	if s.Kind != playbooks.KindModule || s.Handler || s.Loop != nil || s.Async != nil || s.ModuleTemplate() ||
		!pr.plainModule(s) || collectionOf(s.Action) != "" {
		return false
	}
	if _, ok := s.Args["_variable_params"]; ok {
		return false
	}
	for _, c := range append(s.Conditions(), pr.play.When...) {
		if expr.ConditionWarning(c) != "" {
			return false // its warning is given at each evaluation: at its turn alone
		}
	}
	for _, kw := range pr.keywordLevels(s) {
		if kw.DelegateTo != "" || kw.RunOnce.Set || kw.Throttle != nil || kw.Timeout != nil || kw.Debugger != "" {
			return false
		}
	}
	return true
}

// plainModule reports whether t runs a module of tender's on the host
// and the engine does nothing more with its result than record it.
func (pr *playRun) plainModule(t *playbooks.Task) bool {
	if t.ModuleFile != "" || t.ActionPlugin != "" || pr.rn.engine(t) != tasks.NotEngine {
		return false
	}
	tr := pr.rn.traits(t)
	return !tr.Controller && !tr.Action && !tr.BypassHostLoop && !tr.SetsVars && !tr.PlayFacts && !tr.IncludedVars
}

// constantCondition reports whether conds is empty or a constant that
// cannot fail to evaluate (changed_when: false).
func constantCondition(conds []string) bool {
	for _, c := range conds {
		switch c {
		case "false", "False", "true", "True":
		default:
			return false
		}
	}
	return true
}

// captureTimeout bounds a module's run for its first script.
const captureTimeout = time.Second

// capture runs s's module on h for its first script, without running
// anything: skipped says s's conditions do not hold (it will be
// skipped); ok false says s cannot be sent ahead.
func (pr *playRun) capture(ctx context.Context, h *hostRun, s *playbooks.Task, base transport.Conn) (e *aheadEntry, skipped, ok bool) {
	c := &capture{pure: &expr.Pure{Volatile: volatileVars}}
	h.ahead.capturing = c
	defer func() { h.ahead.capturing = nil }()
	scope := pr.scope(h, s, nil)
	kw, err := pr.resolve(s, scope)
	if err != nil || kw.delegateTo != "" || kw.runOnce || kw.throttle > 0 || kw.timeout > 0 || kw.throttleErr != nil {
		return nil, false, false
	}
	holds, err := pr.conditionsHold(h, s, nil)
	if err != nil || c.pure.Hit() {
		return nil, false, false
	}
	if !holds {
		return nil, true, true
	}
	if _, failed := pr.nameFailure(h, s, nil); failed {
		return nil, false, false
	}
	call, err := pr.prepare(ctx, h, s, kw, scope)
	if err != nil {
		return nil, false, false
	}
	call.env.Warn = func(string) {}
	call.env.Output = nil
	// The module gets a context that ends once it gave its script (one
	// that tries again after an error, wait_for's, stops at once), and
	// soon in any case.
	mctx, cancel := context.WithTimeout(ctx, captureTimeout)
	defer cancel()
	c.done = cancel
	_, err = call.mod.Run(mctx, call.env, call.args)
	if !errors.Is(err, errCaptured) || c.cmd == nil || !c.ok || c.pure.Hit() || c.base != base {
		return nil, false, false
	}
	return &aheadEntry{task: s, base: base, cmd: *c.cmd, stdin: c.stdin}, false, true
}
