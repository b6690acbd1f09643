package provision

import (
	"context"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/tender-sh/tender/playbooks"
)

// runList runs tasks in order over hosts, the linear strategy: every host
// finishes a task before any starts the next. Hosts that fail drop out.
func (pr *playRun) runList(ctx context.Context, hosts []*hostRun, list []*playbooks.Task) {
	for _, t := range list {
		if pr.abort || ctx.Err() != nil {
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
			pr.runList(ctx, active, pr.roleTasks(t.Target))
		case playbooks.KindIncludeTasks, playbooks.KindIncludeRole:
			pr.runDynamic(ctx, active, t)
		default:
			if m := t.Meta(); m != "" {
				if pr.rn.r.Tags.Selects(t.EffectiveTags) {
					pr.rn.emit(Event{Kind: TaskStart, Play: pr.name, Task: t.DisplayName(), Path: t.Pos.String()})
					pr.meta(ctx, active, t, m)
				}
				continue
			}
			pr.runTask(ctx, active, t)
		}
	}
}

// free runs each host through the list on its own, the free strategy.
func (pr *playRun) free(ctx context.Context, hosts []*hostRun, list []*playbooks.Task) {
	g := errgroup.Group{}
	g.SetLimit(pr.rn.forks())
	for _, h := range hosts {
		g.Go(func() error {
			pr.runList(ctx, []*hostRun{h}, list)
			return nil
		})
	}
	g.Wait()
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
	if len(b.Rescue) > 0 && len(failed) > 0 {
		for _, h := range failed {
			h.failed = false
		}
		pr.runList(ctx, failed, b.Rescue)
	}
	if len(b.Always) > 0 {
		var still []*hostRun
		for _, h := range hosts {
			if h.failed && !h.unreachable {
				still = append(still, h)
				h.failed = false
			}
		}
		pr.runList(ctx, hosts, b.Always)
		for _, h := range still {
			h.failed = true
		}
	}
}

// meta runs a meta: task.
func (pr *playRun) meta(ctx context.Context, hosts []*hostRun, t *playbooks.Task, action string) {
	switch action {
	case "flush_handlers":
		pr.flushHandlers(ctx, hosts)
	case "end_play":
		pr.abort = true
	case "end_host":
		for _, h := range hosts {
			if ok, _ := pr.conditionsHold(h, t, nil); ok {
				h.ended = true
			}
		}
	case "clear_facts":
		for _, h := range hosts {
			h.facts = map[string]any{}
			h.refresh()
		}
	case "clear_host_errors", "noop", "refresh_inventory", "reset_connection", "end_batch", "end_role":
		// nothing to do for tender's engine
	default:
		for _, h := range hosts {
			pr.fail(h, t, errorf("meta: %s is not supported", action))
		}
	}
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
