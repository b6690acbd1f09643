package provision

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
)

// outcome is one host's result for a task (or one loop item).
type outcome struct {
	data        map[string]any // what register: stores
	changed     bool
	failed      bool
	skipped     bool
	unreachable bool
	verbose     bool // print data even on success (debug)
	indent      bool // print data indented (debug, -vvv)
	loop        bool // the aggregate of a loop's items
	uncounted   bool // the recap's counts were made otherwise (an include's)
	// abort: the failure ends a loop, its result the task's own. Ansible
	// raises such an error (a condition that does not evaluate, arguments
	// that do not render) out of the item, so the items after it do not
	// run and the task's result is this failure, without results.
	abort bool
	// unvalidated: the task failed before Ansible validates its keywords
	// (its when: or its loop did not evaluate), so ignore_errors counts
	// as written (keywords.rawIgnoreErrors).
	unvalidated bool
	// ignoreErrors, when set, is ignore_errors as the failing loop item
	// evaluated it (Ansible validates a task's keywords item by item).
	ignoreErrors *bool
	// cause is the error that made the host unreachable.
	cause error
	// noLog: a loop item's result was censored, so the task's is.
	noLog    bool
	diff     string   // the module's unified diff (--diff)
	warnings []string // the module's warnings
}

// selected reports whether --tags and --skip-tags let t run. A notified
// handler always runs, whatever its tags: ansible-core 2.14 does not
// filter handlers by tags (not even never, nor --skip-tags).
func (pr *playRun) selected(t *playbooks.Task) bool {
	return t.Handler || pr.rn.r.Tags.Selects(t.EffectiveTags)
}

// runTask runs one task on every active host of the batch, at most forks
// hosts at once, and waits for all of them.
func (pr *playRun) runTask(ctx context.Context, hosts []*hostRun, t *playbooks.Task) {
	if !pr.selected(t) {
		return
	}
	release := pr.takeSlot(ctx)
	defer release()
	if ctx.Err() != nil {
		return
	}
	pr.rn.emit(Event{Kind: TaskStart, Play: pr.name, Task: pr.shownName(hosts[0], t), Handler: t.Handler, Path: t.Pos.String(), Args: shownArgs(t), CheckMode: pr.checkMarked(t)})
	once, err := pr.resolve(t, pr.scope(hosts[0], t, nil))
	if once.throttleErr != nil {
		pr.endRun(once.throttleErr)
		return
	}
	bypass := pr.rn.traits(t).BypassHostLoop
	// run_once holds even when another keyword fails: the task fails on
	// the first host alone, as Ansible's strategy reads run_once first.
	if once.runOnce || err == nil && bypass {
		first := hosts[0]
		var facts []onceFact
		pr.onceFacts = &facts
		pr.execTask(ctx, first, t)
		pr.onceFacts = nil
		if !bypass {
			// As Ansible's strategy: the facts a run_once task gives
			// are every reachable play host's.
			for _, h := range pr.hosts {
				if h != first && !h.unreachable {
					for _, f := range facts {
						pr.rn.storeFacts(h, f.t, f.persist, f.facts)
					}
				}
			}
		}
		if t.Register != "" && !bypass {
			if v, ok := first.setFacts[t.Register]; ok {
				for _, h := range hosts[1:] {
					h.setFact(t.Register, v)
				}
			}
		}
		if first.failed && once.runOnce {
			// A run_once task that fails fails every host of the batch
			// (counted once, on the host it ran on), as in Ansible.
			for _, h := range pr.batchHosts {
				if !h.unreachable {
					h.failed = true
					pr.playHosts.remove(h.name)
				}
			}
		}
	} else {
		pr.forEachLimit(hosts, once.throttle, func(h *hostRun) {
			// A host still waiting for a fork when the run is asked to
			// stop does not start the task.
			if !pr.rn.draining() {
				release := pr.throttleTask(ctx, t, once.throttle)
				defer release()
				pr.execTask(ctx, h, t)
			}
		})
	}
	// any_errors_fatal (and run_once, as Ansible treats it) ends the play
	// when a host failed, unless the failure leads into a rescue or an
	// always section, which runs.
	fatal := (pr.rawKeyword(t, anyErrorsFatal) || err == nil && bypass || once.runOnce) && !pr.rawKeyword(t, ignoreErrors)
	pr.endIfFatal(hosts, t, fatal)
	pr.checkMaxFail(t)
}

// execTask runs t on one host: its conditions, its loop, the module, and
// then register, notify and the recap.
func (pr *playRun) execTask(ctx context.Context, h *hostRun, t *playbooks.Task) {
	kw, err := pr.resolve(t, pr.scope(h, t, nil))
	if err != nil && t.Loop != nil {
		// As Ansible: a looped task's keywords are evaluated for each
		// item (delegate_to: "{{ item }}"), so that one the loop
		// variable makes good fails nothing yet.
		out := pr.loop(ctx, h, t, kw, true)
		if out.failed && !out.loop {
			// An item's keywords failed the task: Ansible names the
			// delegate as the task wrote it.
			kw.delegateTo = pr.rawDelegate(t)
		}
		pr.finish(h, t, kw, out, false, nil)
		return
	}
	if err != nil {
		// A keyword that does not evaluate fails the task, as a module's
		// failure does: registered, and ignored under ignore_errors; after
		// its when:, as Ansible checks keywords only for a task that runs.
		out := failure(err)
		if ok, cerr := pr.conditionsHold(h, t, nil); cerr == nil && !ok && t.Loop == nil {
			out = skippedByCondition()
		} else if cerr != nil && t.Loop == nil {
			// A when: that fails is the task's error: Ansible evaluates
			// it before it validates the keywords.
			out = aborting(cerr)
			out.unvalidated = true
		}
		pr.finish(h, t, kw, out, false, nil)
		return
	}
	if t.ModuleTemplate() {
		rt, err := pr.moduleOf(h, t)
		if err != nil {
			pr.finish(h, t, kw, failure(err), false, nil)
			return
		}
		t = rt
	}
	var out outcome
	if t.Loop != nil {
		out = pr.loop(ctx, h, t, kw, false)
	} else {
		out = pr.attempt(ctx, h, t, kw, nil)
	}
	pr.finish(h, t, kw, out, false, nil)
}

// moduleOf returns t with its module template (action: "{{ var }}")
// rendered on h and resolved. A name that comes from a host (marked
// unsafe) is refused: what a host says never picks what runs.
func (pr *playRun) moduleOf(h *hostRun, t *playbooks.Task) (*playbooks.Task, error) {
	v, err := expr.Render(t.Module, pr.scope(h, t, nil))
	if err != nil {
		return nil, undefinedTwice(err)
	}
	if tasks.IsMarked(v) {
		return nil, fmt.Errorf("the module name %q comes from a host (it is marked unsafe): tender does not let a host's data choose the module", expr.Str(v))
	}
	return t.ResolveModule(expr.Str(v))
}

// attempt runs t once on h (for one loop item when extra holds the loop
// variables): skipped when its conditions do not hold.
func (pr *playRun) attempt(ctx context.Context, h *hostRun, t *playbooks.Task, kw keywords, extra map[string]any) outcome {
	ok, err := pr.conditionsHold(h, t, extra)
	switch {
	case err != nil:
		out := aborting(err)
		out.unvalidated = true
		return out
	case !ok:
		return skippedByCondition()
	}
	if out, failed := pr.nameFailure(h, t, extra); failed {
		return out
	}
	h.ahead.current = t
	defer func() { h.ahead.current = nil }()
	return pr.invoke(ctx, h, t, kw, pr.delegatedScope(pr.scope(h, t, extra), kw))
}

// nameFailure is the failure of a task whose name is a template that
// fails to render with other than an undefined variable (which leaves the
// name as written). The name is the first field Ansible validates, so the
// others, ignore_errors among them, stay as written. A Python exception
// is the failed result's (without a message, a loop goes on); a
// ValueError is the name field's conversion error; any other error is
// the templating error, which ends a loop.
func (pr *playRun) nameFailure(h *hostRun, t *playbooks.Task, extra map[string]any) (outcome, bool) {
	if t.Name == "" || !expr.IsTemplate(t.Name) {
		return outcome{}, false
	}
	_, err := expr.Render(t.Name, pr.scope(h, t, extra))
	var u *expr.UndefinedError
	if err == nil || errors.As(err, &u) {
		return outcome{}, false
	}
	class, why, isExc := expr.PythonException(err)
	switch {
	case isExc && !expr.IsValueError(err):
		return outcome{failed: true, unvalidated: true, data: map[string]any{"changed": false, "failed": true,
			"exception": class + ": " + why + "\n"}}, true
	case isExc:
		err = &argsError{msg: fmt.Sprintf("the field 'name' has an invalid value (%s), and could not be converted to an string.The error was: %s", t.Name, why) + t.Pos.Quote(), err: err}
	default:
		err = &argsError{msg: typeErrorText(err), err: err}
	}
	out := aborting(err)
	out.unvalidated = true
	return out, true
}

// skippedByCondition is the outcome of a task whose when: does not hold.
func skippedByCondition() outcome {
	return outcome{skipped: true, data: map[string]any{"changed": false, "skipped": true,
		"skip_reason": "Conditional result was False"}}
}

// finish records an outcome: the event, register, handlers and stats.
// For a loop item, item is set and nothing but the event is recorded.
func (pr *playRun) finish(h *hostRun, t *playbooks.Task, kw keywords, out outcome, isItem bool, item any) {
	switch {
	case out.unvalidated:
		kw.ignoreErrors = kw.rawIgnoreErrors
	case out.ignoreErrors != nil:
		kw.ignoreErrors = *out.ignoreErrors
	}
	kw.noLog = kw.noLog || out.noLog
	if !isItem && !out.skipped && !out.unreachable {
		// A task of the role ran on h: the use completes there.
		pr.roles.mark(t.Role, h.name)
	}
	ev := Event{Kind: HostResult, Play: pr.name, Task: t.DisplayName(), Module: t.Module, Handler: t.Handler,
		Traits: pr.rn.traits(t), Include: t.Kind == playbooks.KindIncludeTasks || t.Kind == playbooks.KindIncludeRole,
		Path: t.Pos.String(), Host: h.name, Delegate: kw.delegateTo, IsItem: isItem, Item: item,
		LoopDone: out.loop, Result: out.data, Verbose: out.verbose, Indent: out.indent}
	switch {
	case out.unreachable:
		ev.Status, ev.Ignored, ev.Cause = StatusUnreachable, kw.ignoreUnreachable, out.cause
	case out.failed:
		ev.Status, ev.Ignored = StatusFailed, kw.ignoreErrors
	case out.skipped:
		ev.Status = StatusSkipped
	case out.changed:
		ev.Status = StatusChanged
	default:
		ev.Status = StatusOK
	}
	if kw.noLog {
		// The censored result no longer asks to be shown (debug's), as
		// in Ansible: only -v prints it, indented from -vvv.
		ev.Result = censored(out)
		ev.Verbose, ev.Indent = pr.rn.r.Verbosity > 0, pr.rn.r.Verbosity > 2
		if !out.skipped {
			pr.rn.r.NoLogValues.AddValue(out.data)
		}
	} else if kw.diff {
		ev.Diff = out.diff
	}
	for _, w := range out.warnings {
		pr.rn.emit(Event{Kind: Warning, Play: pr.name, Task: t.DisplayName(), Host: h.name, Msg: w})
	}
	if msg, ok := out.data["msg"].(string); ok {
		ev.Msg = msg
	}
	if kw.noLog {
		ev.Msg = censoredMsg
		if isItem {
			// Ansible's callbacks get a censored copy that lost the
			// item, and print its label as Python's None.
			ev.Item = nil
		}
	}
	pr.rn.emit(ev)
	if isItem {
		return
	}
	if t.Register != "" && (!out.unreachable || kw.ignoreUnreachable) {
		h.setFact(t.Register, registered(pr.rn.traits(t), out.data))
	}
	if out.changed && !out.failed {
		if err := pr.notify(h, t, pr.scope(h, t, nil)); err != nil {
			pr.fail(h, t, err)
			return
		}
	}
	pr.rn.count(h.name, func(s *Stats) {
		switch {
		case out.uncounted:
		case out.unreachable && kw.ignoreUnreachable:
			// ignore_unreachable: counted as Ansible counts it, and the
			// host stays in the play.
			s.OK++
			s.Ignored++
		case out.unreachable:
			s.Unreachable++
		case out.failed && kw.ignoreErrors:
			s.OK++
			s.Ignored++
			if out.changed {
				s.Changed++
			}
		case out.failed && pr.inRescuedBlock(t):
			s.Rescued++
		case out.failed:
			s.Failed++
		case out.skipped:
			s.Skipped++
		default:
			s.OK++
			if out.changed {
				s.Changed++
			}
		}
	})
	switch {
	case out.unreachable && kw.ignoreUnreachable:
	case out.unreachable:
		h.unreachable = true
		pr.playHosts.remove(h.name)
	case out.failed && !kw.ignoreErrors:
		h.failed = true
		if !pr.inRescuedBlock(t) {
			pr.playHosts.remove(h.name)
		} else {
			pydict.Set(h.setFacts, "ansible_failed_task", map[string]any{"name": t.Name, "action": t.Action})
			// The result as Ansible's strategy keeps it, its no_log
			// flag included.
			res := maps.Clone(out.data)
			if res == nil {
				res = map[string]any{}
			}
			res["_ansible_no_log"] = kw.noLog
			h.setFact("ansible_failed_result", unsafeDeep(res))
		}
	}
}

// inRescuedBlock reports whether t sits in the tasks of a block that has
// rescue tasks: its failure is counted as rescued, not failed.
func (pr *playRun) inRescuedBlock(t *playbooks.Task) bool {
	for c, p := t, t.Parent; p != nil; c, p = p, p.Parent {
		if p.Kind == playbooks.KindBlock && pr.hasTasks(p.Rescue) {
			if slices.Contains(p.Block, c.Original()) {
				return true
			}
		}
	}
	return false
}

const censoredMsg = "the output has been hidden due to the fact that 'no_log: true' was specified for this result"

func censored(out outcome) map[string]any {
	return map[string]any{"censored": censoredMsg, "changed": out.changed}
}

// failure is the outcome of a task that could not run on a host. As in
// Ansible, a failure before the module ran (its arguments, condition,
// loop or keywords did not evaluate) has no changed key; the caller adds
// it for a module's own failure.
func failure(err error) outcome {
	if errors.Is(err, transport.ErrUnreachable) {
		return outcome{unreachable: true, cause: err, data: map[string]any{"changed": false, "unreachable": true, "msg": err.Error()}}
	}
	return outcome{failed: true, data: map[string]any{"failed": true, "msg": err.Error()}}
}

// aborting is the failure of an error that ends a loop (outcome.abort).
func aborting(err error) outcome {
	out := failure(err)
	out.abort = true
	return out
}

// fail records a failure of t on h that happened outside the module.
func (pr *playRun) fail(h *hostRun, t *playbooks.Task, err error) {
	pr.finish(h, t, keywords{}, failure(err), false, nil)
}

// conditionsHold evaluates every when: t inherits and its own.
func (pr *playRun) conditionsHold(h *hostRun, t *playbooks.Task, extra map[string]any) (bool, error) {
	conds := t.Conditions()
	if len(pr.play.When) > 0 && !t.Handler {
		// An import_playbook's when: reaches every task of its plays but
		// the handlers, as Ansible prepends it to each block.
		conds = append(append([]string{}, pr.play.When...), conds...)
	}
	if len(conds) == 0 {
		return true, nil
	}
	ok, err := pr.holds(conds, pr.scope(h, t, extra))
	return ok, atTask(t, err)
}

// notify marks the handlers a changed task notifies, by name or listen.
func (pr *playRun) notify(h *hostRun, t *playbooks.Task, scope expr.Scope) error {
	for _, n := range t.EffectiveNotify() {
		v, err := expr.Render(n, scope)
		if err != nil {
			return err
		}
		name := expr.Str(v)
		found := pr.handlers.notified(name)
		if len(found) == 0 {
			return fmt.Errorf("the requested handler '%s' was not found in the play's handlers", name)
		}
		for _, hd := range found {
			h.notified[hd] = true
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// flushHandlers runs, in definition order, every handler notified on some
// of hosts, on those hosts only (a handler listed twice runs where it is
// first met).
func (pr *playRun) flushHandlers(ctx context.Context, hosts []*hostRun) {
	// force_handlers: a host that failed still runs what it notified.
	force := pr.rn.r.Defaults.ForceHandlers
	if pr.play.ForceHandlers.Set {
		force = pr.play.ForceHandlers.True()
	}
	for _, hd := range flatten(pr.handlers.snapshot()) {
		var run, forced []*hostRun
		for _, h := range hosts {
			switch {
			case h.notified[hd] && h.active():
				run = append(run, h)
			case h.notified[hd] && force && h.failed && !h.unreachable && !h.ended:
				// Let into the run as the always: of a block lets a
				// failed host in; failed again after.
				h.failed = false
				run = append(run, h)
				forced = append(forced, h)
			default:
				continue
			}
			delete(h.notified, hd)
		}
		if len(run) > 0 && ctx.Err() == nil {
			// A handler may be an include_tasks, include_role or block.
			pr.runList(ctx, run, []*playbooks.Task{hd})
		}
		for _, h := range forced {
			h.failed = true
		}
	}
}

// resultData is what register stores for a module's result, with Go's
// other numeric and collection types turned into the ones templates know.
func resultData(data map[string]any, changed, failed bool, msg string) map[string]any {
	out := make(map[string]any, len(data)+3)
	for k, v := range data {
		out[k] = plain(v)
	}
	// Key order as Ansible's: the module's keys, then the failed and
	// changed its executor adds when the module did not set them.
	order := pydict.Keys(data)
	if _, ok := out["msg"]; !ok && msg != "" {
		out["msg"] = msg
		order = append(order, "msg")
	}
	for _, k := range [...]string{"failed", "changed"} {
		if _, ok := data[k]; !ok {
			order = append(order, k)
		}
	}
	out["changed"] = changed
	out["failed"] = failed
	return pydict.Record(out, order)
}

// plain converts a module's value into the value model templates use: int
// for every integer type, float64, []any and map[string]any.
func plain(v any) any {
	switch x := v.(type) {
	case int8:
		return int(x)
	case int16:
		return int(x)
	case int32:
		return int(x)
	case int64:
		return int(x)
	case uint:
		return int(x)
	case uint8:
		return int(x)
	case uint16:
		return int(x)
	case uint32:
		return int(x)
	case uint64:
		return int(x)
	case float32:
		return float64(x)
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	case map[string]string:
		out := make(map[string]any, len(x))
		for k, s := range x {
			out[k] = s
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = plain(e)
		}
		return pydict.Like(out, x)
	}
	return v
}

// shownName is the task's name for its banner: a name with a template is
// rendered with the first host's variables (an included task's name may
// use the include's loop variable), as ansible-playbook does; one that
// does not render is shown as written.
func (pr *playRun) shownName(h *hostRun, t *playbooks.Task) string {
	name := t.DisplayName()
	if t.Name == "" || !expr.IsTemplate(t.Name) {
		return name
	}
	v, err := expr.Render(t.Name, pr.scope(h, t, nil))
	if err != nil {
		return name
	}
	return strings.TrimSuffix(name, t.Name) + expr.Str(v)
}
