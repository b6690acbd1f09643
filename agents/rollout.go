package agents

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Deploy plans every managed host, then deploys the hosts that need it in
// waves of Options.Batch (the first of Options.Canary hosts when set,
// Options.Pause apart), at most Forks at once, and stops scheduling new
// hosts once more than Options.MaxFail have failed, after a failed canary,
// or, with StopOnFailedBatch, after a wave in which a host failed. It blocks until the
// rollout ends and returns its report; the error is for problems that
// stop the whole rollout (no hosts, the ledger cannot be read, ctx ended).
//
// The rollout is recorded in the Store. If the process dies mid-rollout,
// running Deploy again finishes the rest: hosts already deployed match the
// ledger and are skipped after their one-round-trip check, so no host is
// deployed twice.
func (d *Deployer) Deploy(ctx context.Context, opts ...RunOption) (*Report, error) {
	ts, err := d.targets()
	if err != nil {
		return nil, err
	}
	planned := time.Now()
	ro := d.runOptions(opts)
	decs, err := d.plan(ctx, ts, ro.force)
	if err != nil {
		return nil, err
	}
	rep := &Report{Summary: Summary(decs)}
	d.emit(Event{Kind: Planned, Summary: rep.Summary, Decisions: decs})
	rep.Rollout, err = d.store.StartRollout(ctx, RolloutRecord{Agent: d.bundle.Name, Version: d.bundle.Version,
		Owner: d.opts.Owner, Hosts: len(ts), Summary: rep.Summary, TTL: d.opts.LeaseTTL}, Gone)
	if err != nil {
		return nil, err
	}
	stopRenew := d.renewRollout(ctx, rep.Rollout)
	defer stopRenew()
	rep.Hosts = make([]HostResult, len(ts))
	var failures atomic.Int64
	var queue []int
	for i, dec := range decs {
		switch {
		case dec.Deploys():
			queue = append(queue, i)
			continue
		case dec.Action == ActionUnreachable:
			rep.Hosts[i] = HostResult{Host: dec.Host, Decision: dec, Outcome: HostFailed, Error: dec.Reason, Code: dec.Code}
			failures.Add(1)
		default:
			rep.Hosts[i] = HostResult{Host: dec.Host, Decision: dec, Outcome: HostSkipped}
		}
		d.emit(Event{Kind: HostFinished, Host: dec.Host, Result: &rep.Hosts[i]})
	}
	batch := d.opts.Batch.Of(len(ts))
	if batch <= 0 {
		batch = DefaultBatch
	}
	maxFail := -1
	if d.opts.MaxFail != nil {
		maxFail = d.opts.MaxFail.Of(len(ts))
	}
	// halted: a wave failed and the rollout stops there (a failed
	// canary, or any failed wave with StopOnFailedBatch).
	var halted atomic.Bool
	stopped := func() bool {
		return halted.Load() || maxFail >= 0 && failures.Load() > int64(maxFail)
	}
	sem := make(chan struct{}, d.forks(batch))
	for n, start := 0, 0; start < len(queue); n++ {
		size := batch
		if n == 0 && d.opts.Canary > 0 {
			size = d.opts.Canary
		}
		wave := queue[start:min(start+size, len(queue))]
		start += len(wave)
		if n > 0 && d.opts.Pause > 0 && !stopped() {
			d.emit(Event{Kind: Pausing, Pause: d.opts.Pause})
			select {
			case <-time.After(d.opts.Pause):
			case <-ctx.Done():
			}
		}
		if !stopped() && ctx.Err() == nil {
			d.emit(Event{Kind: WaveStarted, Wave: n + 1, Hosts: len(wave)})
		}
		before := failures.Load()
		var wg sync.WaitGroup
		for _, i := range wave {
			// Take the slot first: a host running when we asked may
			// fail while we wait for it.
			sem <- struct{}{}
			if stopped() || ctx.Err() != nil {
				<-sem
				rep.Hosts[i] = HostResult{Host: decs[i].Host, Decision: decs[i], Outcome: HostNotAttempted}
				continue
			}
			wg.Add(1)
			go func() {
				defer func() { <-sem; wg.Done() }()
				r := d.deployHost(ctx, rep.Rollout, n+1, ts[i], decs[i], planned, ro.vars)
				if r.Outcome == HostFailed {
					failures.Add(1)
				}
				rep.Hosts[i] = r
			}()
		}
		wg.Wait()
		if failures.Load() > before && (n == 0 && d.opts.Canary > 0 || d.opts.StopOnFailedBatch && maxFail < 0) {
			halted.Store(true)
		}
	}
	rep.Stopped = stopped() && rep.Count(HostNotAttempted) > 0
	outcome := OutcomeOK
	switch {
	case ctx.Err() != nil:
		outcome = OutcomeInterrupted
	case rep.Stopped:
		outcome = OutcomeStopped
	case rep.Failed():
		outcome = OutcomeFailed
	}
	if err := d.store.FinishRollout(context.WithoutCancel(ctx), rep.Rollout, outcome); err != nil {
		return rep, err
	}
	d.emit(Event{Kind: Finished, Report: rep})
	return rep, ctx.Err()
}

// Rollout watches a rollout started with Start.
type Rollout struct {
	// Events delivers every event of the rollout and is closed when it
	// ends. Read it, or the rollout waits for you.
	Events <-chan Event
	done   chan struct{}
	report *Report
	err    error
}

// Wait blocks until the rollout ends and returns what Deploy would have.
func (r *Rollout) Wait() (*Report, error) {
	<-r.done
	return r.report, r.err
}

// Start runs Deploy (with opts) in the background and returns at once.
// Options.Events is not called: the handle's channel carries the events
// instead.
func (d *Deployer) Start(ctx context.Context, opts ...RunOption) *Rollout {
	ch := make(chan Event, 64)
	r := &Rollout{Events: ch, done: make(chan struct{})}
	dd := &Deployer{store: d.store, bundle: d.bundle, inv: d.inv, opts: d.opts}
	dd.opts.Events = func(e Event) { ch <- e }
	d.mu.Lock()
	dd.added = append(dd.added, d.added...)
	d.mu.Unlock()
	go func() {
		defer close(r.done)
		defer close(ch)
		r.report, r.err = dd.Deploy(ctx, opts...)
	}()
	return r
}

// Reconnect redeploys one host whatever the ledger says (an operator's
// "reconnect"), outside any rollout, and returns how it went.
// RunVars apply to it as to a Deploy (ForceRun changes nothing: a
// reconnect always deploys).
func (d *Deployer) Reconnect(ctx context.Context, host string, opts ...RunOption) (HostResult, error) {
	t, err := d.target(host)
	if err != nil {
		return HostResult{}, err
	}
	planned := time.Now()
	decs, err := d.plan(ctx, []target{t}, true)
	if err != nil {
		return HostResult{}, err
	}
	decs[0].Reason = "reconnect requested"
	return d.deployHost(ctx, 0, 0, t, decs[0], planned, d.runOptions(opts).vars), nil
}
