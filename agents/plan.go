package agents

import (
	"context"
	"embed"
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks"
)

// Plan decides, for every managed host, whether and why to deploy (see
// Decision), in inventory order then added hosts. It changes nothing: the
// ledger is read, hosts that only a look can decide get one round trip
// each (the probe), all at once up to Forks, and Options.NeedRun is asked
// about the hosts found up to date.
func (d *Deployer) Plan(ctx context.Context, opts ...RunOption) ([]Decision, error) {
	ts, err := d.targets()
	if err != nil {
		return nil, err
	}
	return d.plan(ctx, ts, d.runOptions(opts).force)
}

func (d *Deployer) plan(ctx context.Context, ts []target, force bool) ([]Decision, error) {
	out := make([]Decision, len(ts))
	var unsure []target
	at := map[string]int{}
	deployed, err := d.ledgerRows(ctx, ts)
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	for i, t := range ts {
		files, ok := deployed(t.name)
		dec, done := decideLocal(t.name, d.bundle, force, files, ok)
		out[i] = dec
		if !done {
			unsure = append(unsure, t)
			at[t.name] = i
		}
	}
	if len(unsure) == 0 {
		return out, nil
	}
	found, failed, err := d.probe(ctx, unsure)
	if err != nil {
		return nil, err
	}
	for _, t := range unsure {
		i := at[t.name]
		if r := found[t.name]; r != nil {
			out[i] = decideProbe(t.name, d.bundle, r)
			continue
		}
		f := failed[t.name]
		if f.msg == "" {
			f = probeFailure{msg: "the probe did not run", code: CodeUnreachable}
		}
		out[i] = Decision{Host: t.name, Action: ActionUnreachable, Status: StatusUnreachable, Reason: f.msg, Code: f.code, Probed: true}
	}
	return out, d.askNeedRun(ctx, out)
}

// probeFailure is why a host's probe failed, in words and as a code.
type probeFailure struct {
	msg  string
	code ErrorCode
}

// ledgerRows reads the ledger rows of the hosts ts: all at once from a
// BulkStore when they are many, else host by host.
func (d *Deployer) ledgerRows(ctx context.Context, ts []target) (func(host string) ([]FileRecord, bool), error) {
	if bs, ok := d.store.(BulkStore); ok && len(ts) > 1 {
		all, err := bs.DeployedAll(ctx, d.bundle.Name)
		if err != nil {
			return nil, err
		}
		return func(host string) ([]FileRecord, bool) {
			files, ok := all[host]
			return files, ok && len(files) > 0
		}, nil
	}
	rows := make(map[string][]FileRecord, len(ts))
	for _, t := range ts {
		files, ok, err := d.store.Deployed(ctx, t.name, d.bundle.Name)
		if err != nil {
			return nil, err
		}
		if ok {
			rows[t.name] = files
		}
	}
	return func(host string) ([]FileRecord, bool) {
		files, ok := rows[host]
		return files, ok
	}, nil
}

// probeFS holds the probe's playbook.
//
//go:embed probe.yml
var probeFS embed.FS

// probePlaybook is the play the probe runs: no facts, one task.
func probePlaybook() (*playbooks.Playbook, error) {
	reg := &tasks.Registry{}
	reg.Register(probeModuleName, func() tasks.Module { return &probeModule{} }) // the loader only reads its name
	return playbooks.Load("probe.yml", playbooks.Options{FS: probeFS, Modules: reg})
}

// probe runs the check on the hosts through provision.Runner, one run per
// host, Forks at once, and returns each host's result or failure message.
// A run per host closes the host's connection when its check is done, so
// what the check holds is bounded by Forks, not by the fleet: one run of
// 10,000 hosts kept every connection until its end (1 GiB here).
func (d *Deployer) probe(ctx context.Context, ts []target) (map[string]*ProbeResult, map[string]probeFailure, error) {
	pb, err := probePlaybook()
	if err != nil {
		return nil, nil, fmt.Errorf("agents: the probe playbook: %w", err)
	}
	m := newProbeModule(d.bundle, d.opts.Connections)
	reg := &tasks.Registry{}
	reg.Register(probeModuleName, func() tasks.Module { return m })
	var mu sync.Mutex
	failed := map[string]probeFailure{}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(d.forks(d.opts.Batch.Of(len(ts))))
	for _, t := range ts {
		g.Go(func() error {
			r := &provision.Runner{Inventory: t.inv, Modules: reg, Connections: d.opts.Connections, Sandbox: d.opts.Sandbox,
				Forks: 1, Keys: t.runKeys(), Limit: t.name,
				ExtraVars: map[string]any{"tender_probe_become": d.bundle.Become},
				Events: func(e provision.Event) {
					if e.Kind == provision.HostResult && (e.Status == provision.StatusFailed || e.Status == provision.StatusUnreachable) {
						mu.Lock()
						failed[e.Host] = probeFailure{msg: string(e.Status) + ": " + e.Msg, code: eventCode(e)}
						mu.Unlock()
					}
				}}
			_, err := r.Run(gctx, pb)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, nil, err
	}
	found := map[string]*ProbeResult{}
	for _, t := range ts {
		if r := m.result(t.name); r != nil {
			found[t.name] = r
		}
	}
	return found, failed, nil
}
