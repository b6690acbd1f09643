package agents

import (
	"context"
	"maps"

	"golang.org/x/sync/errgroup"
)

// RunOption changes one Plan, Deploy or Start call, where Options apply
// to every call.
type RunOption func(*runOptions)

type runOptions struct {
	force bool
	vars  map[string]any // RunVars
}

// ForceRun redeploys every host in this call whatever the ledger and the
// hosts say (ZStack's full deploy), as Options.Force does in every call.
func ForceRun() RunOption { return func(o *runOptions) { o.force = true } }

// RunVars gives the bundle's playbook extra variables in this call only
// (ZStack's per-run arguments), over Options.ExtraVars; tender's own
// (agent_action, agent_host, ...) still win. Given twice, the later
// values win key by key.
func RunVars(vars map[string]any) RunOption {
	return func(o *runOptions) {
		if o.vars == nil {
			o.vars = map[string]any{}
		}
		maps.Copy(o.vars, vars)
	}
}

// runOptions applies opts over the Deployer's Options.
func (d *Deployer) runOptions(opts []RunOption) runOptions {
	o := runOptions{force: d.opts.Force}
	for _, f := range opts {
		f(&o)
	}
	return o
}

// askNeedRun asks Options.NeedRun about the hosts decs skips, at once up
// to Forks, and turns a "need" (or an error) into a repair.
func (d *Deployer) askNeedRun(ctx context.Context, decs []Decision) error {
	if d.opts.NeedRun == nil {
		return nil
	}
	g, gctx := errgroup.WithContext(ctx)
	if d.opts.Forks > 0 {
		g.SetLimit(d.opts.Forks)
	}
	for i := range decs {
		if decs[i].Action != ActionSkip {
			continue
		}
		g.Go(func() error {
			need, reason, err := d.opts.NeedRun(gctx, decs[i].Host)
			switch {
			case gctx.Err() != nil:
				return gctx.Err()
			case err != nil:
				need, reason = true, "need-run check failed: "+err.Error()
			case need && reason == "":
				reason = "the need-run check asked for a run"
			}
			if need {
				decs[i].Action, decs[i].Status, decs[i].Reason = ActionRepair, StatusNeedsRun, reason
			}
			return nil
		})
	}
	return g.Wait()
}
