package provision

import (
	"sync"

	"github.com/tender-sh/tender/tasks"
)

// playHosts are a play's host-list magic variables: ansible_play_hosts
// (the play's hosts, every batch) and ansible_play_batch (and play_hosts:
// the current serial batch), both without the hosts the play removed, as
// Ansible's play does: a host that failed (not rescued), was unreachable
// or ended with meta end_host. Hosts' goroutines read it while others
// remove; the lists are rebuilt on each change.
type playHosts struct {
	mu      sync.Mutex
	removed map[string]bool
	all     []any // the play's hosts' names (marked), without those an earlier play removed
	batch   []any // the current batch's
	// lists are ansible_play_hosts and ansible_play_batch, rebuilt when
	// removed or batch changes.
	hosts, batchLeft []any
}

// setAll sets the play's hosts (at the play's start).
func (p *playHosts) setAll(names []any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.all = names
	p.rebuild()
}

// setBatch sets the current serial batch's hosts.
func (p *playHosts) setBatch(names []any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.batch = names
	p.rebuild()
}

// remove takes hosts out of the play's lists.
func (p *playHosts) remove(hosts ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.removed == nil {
		p.removed = map[string]bool{}
	}
	for _, h := range hosts {
		p.removed[h] = true
	}
	p.rebuild()
}

// lists returns ansible_play_hosts and ansible_play_batch. The caller
// must not change them.
func (p *playHosts) lists() (hosts, batch []any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hosts, p.batchLeft
}

func (p *playHosts) rebuild() {
	left := func(names []any) []any {
		out := make([]any, 0, len(names))
		for _, n := range names {
			if !p.removed[tasks.ToText(n)] {
				out = append(out, n)
			}
		}
		return out
	}
	p.hosts, p.batchLeft = left(p.all), left(p.batch)
}
