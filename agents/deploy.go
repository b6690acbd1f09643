package agents

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tender-sh/tender/provision"
)

// deployHost deploys the bundle on one host as dec says: it takes the
// host's lease, checks the ledger again (another tender may have deployed
// the host since planned, the time the decision was made), records the
// deployment, runs the bundle's playbook through
// provision.Runner limited to the host, and, only when that run fully
// succeeded, replaces the host's ledger rows with the bundle's files in
// one transaction.
func (d *Deployer) deployHost(ctx context.Context, rollout int64, wave int, t target, dec Decision, planned time.Time, vars map[string]any) HostResult {
	start := time.Now()
	res := HostResult{Host: t.name, Decision: dec}
	done := func(o Outcome, msg string, code ErrorCode) HostResult {
		res.Outcome, res.Error, res.Code, res.Duration = o, msg, code, time.Since(start)
		d.emit(Event{Kind: HostFinished, Host: t.name, Result: &res})
		return res
	}
	d.emit(Event{Kind: HostStarted, Host: t.name, Decision: &dec})
	// Ledger writes outlive a cancelled ctx: what happened is recorded.
	bg := context.WithoutCancel(ctx)
	agent := d.bundle.Name
	ok, holder, err := d.store.Lease(ctx, t.name, agent, d.opts.Owner, d.opts.LeaseTTL, Gone)
	if err != nil {
		return done(HostFailed, "ledger lease: "+err.Error(), CodeLedger)
	}
	if !ok {
		return done(HostBusy, "another tender is deploying it ("+holder+")", "")
	}
	defer d.store.Release(bg, t.name, agent, d.opts.Owner)
	if meanwhile, err := d.deployedSince(ctx, t.name, dec, planned); err != nil {
		return done(HostFailed, "ledger: "+err.Error(), CodeLedger)
	} else if meanwhile {
		res.Decision = Decision{Host: t.name, Action: ActionSkip, Status: StatusInSync, Reason: "deployed meanwhile by another tender"}
		return done(HostSkipped, "", "")
	}
	// The run ends early when a renewal finds the lease lost.
	runCtx, lost, stopRenew := d.renewLease(ctx, t.name)
	defer stopRenew()
	red := d.redactor(t)
	id, err := d.store.StartDeployment(ctx, DeploymentRecord{Rollout: rollout, Host: t.name, Agent: agent,
		Reason: red.String(string(dec.Action) + ": " + dec.Reason), Owner: d.opts.Owner, Wave: wave})
	if err != nil {
		return done(HostFailed, "ledger: "+err.Error(), CodeLedger)
	}
	var failure string
	var code ErrorCode
	r := &provision.Runner{Inventory: t.inv, Modules: d.opts.Modules, Connections: d.opts.Connections, Sandbox: d.opts.Sandbox,
		Forks: 1, Keys: t.runKeys(), Limit: t.name, ExtraVars: d.playVars(t.name, dec, vars),
		Decrypt: d.opts.Vault.DecryptFunc(), NoLogValues: red.noLog,
		Events: func(e provision.Event) {
			// The first failure says most: a loop's item comes before
			// the loop's "All items completed".
			if e.Kind == provision.HostResult && !e.Ignored &&
				(e.Status == provision.StatusFailed || e.Status == provision.StatusUnreachable) && failure == "" {
				failure = fmt.Sprintf("task %q: %s: %s", e.Task, e.Status, e.Msg)
				code = eventCode(e)
			}
			redactEvent(&e, red)
			d.emit(Event{Kind: HostTask, Host: t.name, Task: &e})
		}}
	recap, err := r.Run(runCtx, d.bundle.Playbook)
	var st *provision.Stats
	if recap != nil {
		st = recap.Stats[t.name]
	}
	switch {
	case lost() != nil:
		failure, code = lost().Error(), CodeLeaseLost
	case err != nil:
		failure, code = err.Error(), runCode(ctx, err)
	case st == nil:
		failure, code = "the bundle's playbook has no play for this host", CodeTaskFailed
	case failure == "" && (st.Failed > 0 || st.Unreachable > 0):
		failure, code = "the bundle's playbook failed", CodeTaskFailed
	}
	if failure != "" {
		failure = red.String(failure)
		outcome := OutcomeFailed
		if ctx.Err() != nil {
			outcome, code = OutcomeInterrupted, CodeCancelled
		}
		if err := d.store.FinishDeployment(bg, id, outcome, failure, nil); err != nil {
			failure += "; ledger: " + err.Error()
		}
		return done(HostFailed, failure, code)
	}
	files := make([]FileRecord, len(d.bundle.Files))
	now := time.Now()
	for i, f := range d.bundle.Files {
		files[i] = FileRecord{Path: f.Dest, MD5: f.MD5, Size: f.Size, DeployedAt: now, Version: d.bundle.Version}
	}
	if err := d.store.FinishDeployment(bg, id, OutcomeOK, "", files); err != nil {
		msg := "deployed, but the ledger was not written: " + err.Error()
		if errors.Is(err, ErrLeaseLost) {
			if err := d.store.FinishDeployment(bg, id, OutcomeFailed, msg, nil); err != nil {
				msg += "; ledger: " + err.Error()
			}
		}
		code := CodeLedger
		if errors.Is(err, ErrLeaseLost) {
			code = CodeLeaseLost
		}
		return done(HostFailed, msg, code)
	}
	return done(HostDeployed, "", "")
}

// deployedSince reports whether, now that the lease is held, the ledger
// shows the host was deployed with this bundle after the decision dec was
// made at planned: the decision was new or upgrade and the ledger now
// matches the bundle, or the ledger's rows were written after planned. A
// forced deploy goes ahead whatever the ledger says.
func (d *Deployer) deployedSince(ctx context.Context, host string, dec Decision, planned time.Time) (bool, error) {
	if dec.Action == ActionForce {
		return false, nil
	}
	files, ok, err := d.store.Deployed(ctx, host, d.bundle.Name)
	if err != nil || !ok {
		return false, err
	}
	if _, decided := decideLocal(host, d.bundle, false, files, ok); decided {
		return false, nil // the ledger still differs from the bundle
	}
	if dec.Action == ActionNew || dec.Action == ActionUpgrade {
		return true, nil
	}
	for _, f := range files {
		if f.DeployedAt.After(planned) {
			return true, nil
		}
	}
	return false, nil
}

// renewLease renews the host's lease every third of its TTL while the
// deploy runs, so a deploy that outlasts the TTL keeps it. It returns a
// context for the host's run that ends when a renewal fails or finds the
// lease held by another tender, a func telling why (nil while the lease
// holds), and a func that stops the renewals.
func (d *Deployer) renewLease(ctx context.Context, host string) (context.Context, func() error, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	var why atomic.Pointer[error]
	stop := d.everyThirdOfTTL(ctx, func() bool {
		ok, holder, err := d.store.Lease(ctx, host, d.bundle.Name, d.opts.Owner, d.opts.LeaseTTL, nil)
		if ctx.Err() != nil {
			return false
		}
		if err == nil && !ok {
			err = fmt.Errorf("%w (held by %s)", ErrLeaseLost, holder)
		}
		if err != nil {
			err = fmt.Errorf("renewing the lease: %w", err)
			why.Store(&err)
			cancel(err)
			return false
		}
		return true
	})
	lost := func() error {
		if e := why.Load(); e != nil {
			return *e
		}
		return nil
	}
	return ctx, lost, func() { cancel(nil); stop() }
}

// everyThirdOfTTL calls renew every third of LeaseTTL until renew returns
// false, ctx ends, or the returned func is called (which waits for a
// renewal under way, and none starts after it returns).
func (d *Deployer) everyThirdOfTTL(ctx context.Context, renew func() bool) func() {
	// A timer starts each renewal: no goroutine waits between them (one
	// per host in flight was stack memory for the whole deploy).
	period := d.opts.LeaseTTL / 3
	var (
		mu      sync.Mutex
		stopped bool
		busy    sync.WaitGroup
		timer   *time.Timer
	)
	fire := func() {
		mu.Lock()
		if stopped || ctx.Err() != nil {
			mu.Unlock()
			return
		}
		busy.Add(1)
		mu.Unlock()
		defer busy.Done()
		start := time.Now()
		ok := renew()
		mu.Lock()
		if ok && !stopped && ctx.Err() == nil {
			// The next renewal a period after this one began, as a
			// ticker would have it.
			timer.Reset(max(period-time.Since(start), 0))
		}
		mu.Unlock()
	}
	mu.Lock()
	timer = time.AfterFunc(period, fire)
	mu.Unlock()
	return func() {
		mu.Lock()
		stopped = true
		timer.Stop()
		mu.Unlock()
		busy.Wait()
	}
}

// playVars are the vars a bundle's playbook gets, as ZStack's runners
// passed them: the operator's -e vars, then the call's (RunVars), then
// tender's (which win): init,
// agent_action (new, upgrade, repair or force) and agent_reason, agent_name, agent_version, agent_host, agent_files (the tracked
// destinations), agent_package (the first of them) and agent_bundle_files
// (src, dest, mode, owner and group of each).
func (d *Deployer) playVars(host string, dec Decision, call map[string]any) map[string]any {
	v := maps.Clone(d.opts.ExtraVars)
	if v == nil {
		v = map[string]any{}
	}
	maps.Copy(v, call)
	dests := make([]any, len(d.bundle.Files))
	files := make([]any, len(d.bundle.Files))
	for i, f := range d.bundle.Files {
		dests[i] = f.Dest
		m := map[string]any{"src": f.Src, "dest": f.Dest, "md5": f.MD5}
		for k, val := range map[string]string{"mode": f.Mode, "owner": f.Owner, "group": f.Group} {
			if val != "" {
				m[k] = val
			} else {
				m[k] = nil
			}
		}
		files[i] = m
	}
	v["init"] = dec.Init
	v["agent_action"] = string(dec.Action)
	v["agent_reason"] = dec.Reason
	v["agent_name"] = d.bundle.Name
	v["agent_version"] = d.bundle.Version
	v["agent_host"] = host
	v["agent_files"] = dests
	v["agent_package"] = dests[0]
	v["agent_bundle_files"] = files
	return v
}

// renewRollout renews the rollout's lease every third of LeaseTTL until
// the returned func is called, so that the ledger shows it abandoned only
// when this process stops renewing it (it died, or lost the ledger). A
// failed renewal is tried again at the next tick.
func (d *Deployer) renewRollout(ctx context.Context, id int64) func() {
	return d.everyThirdOfTTL(ctx, func() bool {
		_ = d.store.RenewRollout(ctx, id, d.opts.LeaseTTL)
		return true
	})
}
