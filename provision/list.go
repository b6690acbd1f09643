package provision

import (
	"context"
	"sync"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/tasks"
)

// runList runs tasks in order over hosts, the linear strategy: every host
// finishes a task before any starts the next. Hosts that fail drop out.
func (pr *playRun) runList(ctx context.Context, hosts []*hostRun, list []*playbooks.Task) {
	for i, t := range list {
		if pr.stopped() || ctx.Err() != nil {
			return
		}
		active := activeHosts(hosts)
		if len(active) == 0 {
			return
		}
		switch t.Kind {
		case playbooks.KindBlock:
			pr.runBlock(ctx, active, t)
		case playbooks.KindImportTasks:
			pr.runList(ctx, active, t.Tasks)
		case playbooks.KindImportRole:
			if pr.roles.isUse(t) {
				pr.runRoleUse(ctx, active, t.Target)
				continue
			}
			pr.runList(ctx, active, pr.roleTasks(t.Target))
		case playbooks.KindIncludeTasks, playbooks.KindIncludeRole:
			// A dynamic include is a task: --tags and --skip-tags select
			// it by its own tags (and its blocks'), as Ansible does; the
			// tasks it includes are not looked at.
			if !pr.rn.startAt.skip(t) && pr.selected(t) {
				pr.runDynamic(ctx, active, t)
			}
		default:
			if pr.rn.startAt.skip(t) || !pr.step(ctx, t) {
				continue
			}
			if pr.rn.engine(t) == tasks.EngineMeta {
				if pr.selected(t) {
					pr.meta(ctx, active, t, t.RawParams())
				}
				continue
			}
			for _, h := range active {
				h.ahead.next = list[i+1:]
			}
			pr.runTask(ctx, active, t)
			for _, h := range active {
				h.ahead.next = nil
			}
		}
	}
}

func activeHosts(hosts []*hostRun) []*hostRun {
	out := make([]*hostRun, 0, len(hosts))
	for _, h := range hosts {
		if h.active() {
			out = append(out, h)
		}
	}
	return out
}

// runBlock runs a block: its tasks; then, on the hosts that failed in them,
// the rescue tasks (a host that completes rescue is no longer failed);
// then, on every host that entered the block and is still reachable, the
// always tasks.
func (pr *playRun) runBlock(ctx context.Context, hosts []*hostRun, b *playbooks.Task) {
	pr.runList(ctx, hosts, b.Block)
	var failed []*hostRun
	for _, h := range hosts {
		if h.failed && !h.unreachable {
			failed = append(failed, h)
		}
	}
	if pr.hasTasks(b.Rescue) && len(failed) > 0 {
		for _, h := range failed {
			h.failed = false
		}
		pr.runList(ctx, failed, b.Rescue)
	}
	if len(b.Always) > 0 {
		// A host that failed runs always, then stays failed, unless a
		// clear_host_errors ran meanwhile: then it goes on past the
		// block, as Ansible's cleared fail state does.
		still := map[*hostRun]int{}
		for _, h := range hosts {
			if h.failed && !h.unreachable {
				still[h] = h.clears
				h.failed = false
			}
		}
		pr.runList(ctx, hosts, b.Always)
		for h, clears := range still {
			if h.clears == clears {
				h.failed = true
			}
		}
	}
}

// hasTasks reports whether list holds a task that --tags and --skip-tags
// select, not only blocks without any (Ansible drops an empty block when
// it loads it, and the tasks the tags filter out before the play runs:
// a rescue of empty blocks, or of tasks tagged never, rescues nothing).
func (pr *playRun) hasTasks(list []*playbooks.Task) bool {
	for _, t := range list {
		switch t.Kind {
		case playbooks.KindBlock:
			if pr.hasTasks(t.Block) || pr.hasTasks(t.Rescue) || pr.hasTasks(t.Always) {
				return true
			}
		case playbooks.KindImportTasks:
			if pr.hasTasks(t.Tasks) {
				return true
			}
		default:
			if pr.selected(t) {
				return true
			}
		}
	}
	return false
}

// metaConditional are the meta actions whose when: Ansible evaluates.
var metaConditional = map[string]bool{"clear_facts": true, "clear_host_errors": true, "end_batch": true,
	"end_play": true, "end_host": true, "reset_connection": true, "flush_handlers": true}

// metaOnce are the meta actions the linear strategy runs once, for the
// first host still running, whose when: decides for every host (Ansible
// runs the others host by host).
var metaOnce = map[string]bool{"clear_facts": true, "clear_host_errors": true, "end_batch": true,
	"end_play": true, "refresh_inventory": true}

// metaSkipped is the result of a meta task whose when: does not hold on
// host, as Ansible's strategy words it.
func metaSkipped(action, host string) map[string]any {
	reason := action + " conditional evaluated to False"
	msg := action
	switch action {
	case "flush_handlers":
		reason += ", not running handlers for " + host
	case "clear_facts":
		reason += ", not clearing facts and fact cache for " + host
	case "clear_host_errors":
		reason += ", not clearing host error state for " + host
	case "end_batch":
		reason += ", continuing current batch"
	case "end_play":
		reason += ", continuing play"
	case "end_host":
		reason += ", continuing execution for " + host
		msg = "end_host conditional evaluated to false, continuing execution for " + host
	}
	return map[string]any{"skipped": true, "skip_reason": reason, "msg": msg}
}

// meta runs a meta: task.
func (pr *playRun) meta(ctx context.Context, hosts []*hostRun, t *playbooks.Task, action string) {
	banner := Event{Kind: TaskStart, Play: pr.name, Task: t.DisplayName(), Path: t.Pos.String(), CheckMode: pr.checkMarked(t)}
	on := hosts
	if metaConditional[action] {
		// As ansible-playbook runs these: host by host, each under its own
		// banner, skipped where its when: does not hold.
		on = nil
		for i, h := range hosts {
			if i > 0 && metaOnce[action] {
				break
			}
			pr.rn.emit(banner)
			ok, err := pr.conditionsHold(h, t, nil)
			switch {
			case err != nil:
				// Ansible's strategy raises it: the run ends here.
				pr.endRun(err)
				return
			case ok:
				on = append(on, h)
			default:
				// Shown, but not counted in the recap, as Ansible does
				// with a meta's results.
				pr.rn.emit(Event{Kind: HostResult, Play: pr.name, Task: t.DisplayName(), Module: t.Module,
					Path: t.Pos.String(), Host: h.name, Status: StatusSkipped, Result: metaSkipped(action, h.name)})
			}
		}
	} else {
		pr.rn.emit(banner)
	}
	switch action {
	case "flush_handlers":
		// Only the hosts whose when: holds run their handlers here.
		pr.flushHandlers(ctx, on)
	case "end_play":
		if len(on) > 0 {
			pr.abort = true
		}
	case "end_batch":
		if len(on) > 0 {
			pr.endBatch = true
		}
	case "end_host":
		for _, h := range on {
			h.ended = true
			pr.playHosts.remove(h.name)
		}
	case "clear_facts":
		if len(on) > 0 {
			for _, h := range pr.metaScope(hosts) {
				// As Ansible: the fact cache forgets them too, and the
				// next play's smart gathering gathers them again.
				h.facts, h.moduleFacts, h.cachedFacts, h.gathered = map[string]any{}, map[string]any{}, nil, false
				h.refreshFacts()
				if c := pr.rn.r.FactCache; c != nil {
					if err := c.Delete(h.name); err != nil {
						pr.rn.emit(Event{Kind: Warning, Host: h.name, Msg: err.Error()})
					}
				}
			}
		}
	case "clear_host_errors":
		// As in ansible-core 2.14: the failed and unreachable hosts are
		// forgiven (the next plays have them) but do not come back in
		// this one; a host running an always section for a failure goes
		// on after the block.
		if len(on) > 0 {
			for _, h := range pr.metaScope(hosts) {
				if h.failed || h.unreachable {
					h.failed, h.unreachable, h.ended = false, false, true
				}
				h.clears++
				pr.rn.forgive(h.name)
			}
		}
	case "reset_connection":
		// The next task logs in again (after a change of groups, say).
		for _, h := range on {
			h.close()
		}
	case "refresh_inventory":
		pr.rn.emit(Event{Kind: Warning, Play: pr.name, Task: t.DisplayName(),
			Msg: "meta: refresh_inventory: tender reads the inventory once per run; hosts added or changed in its files since are not seen"})
	case "noop":
	default:
		for _, h := range hosts {
			pr.fail(h, t, errorf("invalid meta action requested: %s (flush_handlers, refresh_inventory, noop, clear_facts, clear_host_errors, end_batch, end_host, end_play, reset_connection)", action))
		}
	}
}

// metaScope is the hosts clear_facts and clear_host_errors act on: the
// whole batch, failed hosts included, as in Ansible; under the free
// and host_pinned strategies, where every host runs on its own, the host itself only (no
// host changes another's state while that one runs).
func (pr *playRun) metaScope(hosts []*hostRun) []*hostRun {
	if pr.perHost() {
		return hosts
	}
	return pr.batchHosts
}

// forEach runs fn for every host with at most forks at once.
func (pr *playRun) forEach(hosts []*hostRun, fn func(h *hostRun)) {
	pr.forEachLimit(hosts, 0, fn)
}

// forEachLimit is forEach with at most limit hosts at once (the task's
// throttle), when limit is below the run's forks; 0 means forks.
func (pr *playRun) forEachLimit(hosts []*hostRun, limit int, fn func(h *hostRun)) {
	if len(hosts) == 1 {
		fn(hosts[0])
		return
	}
	n := pr.rn.forks()
	if limit > 0 && limit < n {
		n = limit
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, n)
	for _, h := range hosts {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			fn(h)
		}()
	}
	wg.Wait()
}

// StepAnswer is the operator's answer to Runner.Step.
type StepAnswer int

// The answers to --step's question.
const (
	StepNo StepAnswer = iota
	StepYes
	StepContinue
)

// step asks Runner.Step whether t runs (--step); a failure to ask ends
// the run.
func (pr *playRun) step(ctx context.Context, t *playbooks.Task) bool {
	if pr.rn.r.Step == nil {
		return true
	}
	// One question at a time, whatever the strategy.
	pr.stepMu.Lock()
	defer pr.stepMu.Unlock()
	if pr.noStep {
		return true
	}
	a, err := pr.rn.r.Step(ctx, t.DisplayName())
	if err != nil {
		pr.abort = true
		pr.rn.stepErr.CompareAndSwap(nil, &err)
		return false
	}
	if a == StepContinue {
		pr.noStep = true
	}
	return a != StepNo
}
