package provision

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"

	"github.com/tender-sh/tender/internal/fqcn"
	"github.com/tender-sh/tender/playbooks"
)

// The strategies a play can name (its strategy keyword, else
// PlayDefaults.Strategy), as ansible-core ships them.
const (
	// linear: every host finishes a task before any host starts the next.
	strategyLinear = "linear"
	// free: each host goes through the tasks on its own, as fast as it
	// can; a fork is taken for one task at a time, so every host moves on
	// even when there are more hosts than forks.
	strategyFree = "free"
	// host_pinned: as free, but a fork stays with its host until the host
	// has run the whole list; a host waits for a fork to come free before
	// it starts.
	strategyHostPinned = "host_pinned"
)

// strategyName returns the strategy s names (an FQCN of ansible.builtin or
// ansible.legacy counts as its short name; empty is linear), or the error
// Ansible gives for a strategy it does not have. The debug strategy is
// Ansible's interactive task debugger: tender refuses it, as it refuses
// the debugger keyword.
func strategyName(s string) (string, error) {
	switch short := fqcn.Short(s); short {
	case "":
		return strategyLinear, nil
	case strategyLinear, strategyFree, strategyHostPinned:
		return short, nil
	case "debug":
		return "", fmt.Errorf("strategy %s is Ansible's interactive task debugger, which tender does not have (linear, free and host_pinned are)", s)
	}
	return "", fmt.Errorf("Invalid play strategy specified: %s", s)
}

// perHost reports whether the play runs each host through its tasks on
// its own (free, host_pinned) rather than in step (linear).
func (pr *playRun) perHost() bool {
	return pr.play.Strategy == strategyFree || pr.play.Strategy == strategyHostPinned
}

// runSection runs one of the play's task lists on hosts with the play's
// strategy.
func (pr *playRun) runSection(ctx context.Context, hosts []*hostRun, list []*playbooks.Task) {
	switch pr.play.Strategy {
	case strategyFree:
		pr.free(ctx, hosts, list)
	case strategyHostPinned:
		pr.hostPinned(ctx, hosts, list)
	default:
		pr.runList(ctx, hosts, list)
	}
}

// free runs each host through the list on its own, the free strategy:
// every host starts at once, and a task takes one of the run's forks
// while it runs (runTask), so a slow host holds back no other.
func (pr *playRun) free(ctx context.Context, hosts []*hostRun, list []*playbooks.Task) {
	pr.slots = make(chan struct{}, pr.rn.forks())
	defer func() { pr.slots = nil }()
	g := errgroup.Group{}
	for _, h := range hosts {
		g.Go(func() error {
			pr.runList(ctx, []*hostRun{h}, list)
			return nil
		})
	}
	g.Wait()
}

// hostPinned runs each host through the list on its own, at most forks
// hosts at once, the host_pinned strategy: a host keeps its fork until it
// has run the whole list.
func (pr *playRun) hostPinned(ctx context.Context, hosts []*hostRun, list []*playbooks.Task) {
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

// takeSlot waits for a fork under the free strategy and returns the
// function that gives it back; under the other strategies forks are
// counted by forEach, and it does nothing.
func (pr *playRun) takeSlot(ctx context.Context) (release func()) {
	slots := pr.slots
	if slots == nil {
		return func() {}
	}
	select {
	case slots <- struct{}{}:
		return func() { <-slots }
	case <-ctx.Done():
		return func() {}
	}
}
