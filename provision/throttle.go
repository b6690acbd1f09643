package provision

import (
	"context"

	"github.com/tender-sh/tender/playbooks"
)

// throttleTask bounds, under the free and host_pinned strategies, how many
// hosts run t at once to its throttle (limit), as Ansible counts the
// workers busy with one task whatever host they serve; it returns the
// function that frees the place. Under linear, forEachLimit bounds the
// hosts of each task, and it does nothing.
func (pr *playRun) throttleTask(ctx context.Context, t *playbooks.Task, limit int) (release func()) {
	if limit <= 0 || limit >= pr.rn.forks() || !pr.perHost() {
		return func() {}
	}
	pr.throttleMu.Lock()
	if pr.throttles == nil {
		pr.throttles = map[*playbooks.Task]chan struct{}{}
	}
	key := t.Original()
	sem, ok := pr.throttles[key]
	if !ok {
		sem = make(chan struct{}, limit)
		pr.throttles[key] = sem
	}
	pr.throttleMu.Unlock()
	select {
	case sem <- struct{}{}:
		return func() { <-sem }
	case <-ctx.Done():
		return func() {}
	}
}
