package agents

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks/builtin"
)

// DefaultRestartWait is how long Restart waits for a restarted agent to
// answer when Options.RestartWait is zero.
const DefaultRestartWait = 30 * time.Second

// ErrBusy is what Restart's error wraps when another tender holds the
// host's lease (it is deploying it).
var ErrBusy = errors.New("another tender is deploying the host")

// RestartResult is how an agent's restart went on a host.
type RestartResult struct {
	Host string `json:"host"`
	// Up: the agent answers after the restart (its port listens, its
	// health command passes).
	Up bool `json:"up"`
	// Error says why not; Code is the same for a program: the
	// connection's codes, task_failed (the service would not restart),
	// agent_down, cancelled.
	Error    string        `json:"error,omitempty"`
	Code     ErrorCode     `json:"code,omitempty"`
	Duration time.Duration `json:"duration"`
}

//go:embed restart.yml
var restartFS embed.FS

// Restart restarts the agent on host: its service (the manifest's
// service:) restarted with the service module, then the agent's port or
// health command checked until it answers or Options.RestartWait passes.
// The host's lease is held meanwhile, so no deploy runs on it at the
// same time; the ledger is not written (no file changes). An error is
// returned when the bundle names no service, the host is unknown, or
// another tender is deploying it (ErrBusy).
func (d *Deployer) Restart(ctx context.Context, host string) (RestartResult, error) {
	if d.bundle.Service == "" {
		return RestartResult{}, fmt.Errorf("agent %s: the bundle's manifest names no service: to restart", d.bundle.Name)
	}
	t, err := d.target(host)
	if err != nil {
		return RestartResult{}, err
	}
	start := time.Now()
	res := RestartResult{Host: host}
	done := func(code ErrorCode, msg string) (RestartResult, error) {
		res.Code, res.Error, res.Up, res.Duration = code, msg, code == "", time.Since(start)
		return res, nil
	}
	ok, holder, err := d.store.Lease(ctx, host, d.bundle.Name, d.opts.Owner, d.opts.LeaseTTL, Gone)
	if err != nil {
		return RestartResult{}, fmt.Errorf("ledger lease: %w", err)
	}
	if !ok {
		return RestartResult{}, fmt.Errorf("%s: %w (%s)", host, ErrBusy, holder)
	}
	defer d.store.Release(context.WithoutCancel(ctx), host, d.bundle.Name, d.opts.Owner)
	if code, msg := d.restartService(ctx, t); code != "" {
		return done(code, msg)
	}
	wait := d.opts.RestartWait
	if wait <= 0 {
		wait = DefaultRestartWait
	}
	deadline := time.Now().Add(wait)
	for {
		found, failed, err := d.probe(ctx, []target{t})
		if err != nil {
			return done(runCode(ctx, err), err.Error())
		}
		why := ""
		if f, ok := failed[host]; ok {
			if f.code != CodeTaskFailed {
				return done(f.code, f.msg)
			}
			why = f.msg
		} else if p := found[host]; p != nil {
			if dec := decideProbe(host, d.bundle, p); dec.Status == StatusDown {
				why = dec.Reason
			}
		}
		if why == "" {
			return done("", "")
		}
		if time.Now().After(deadline) {
			return done(CodeAgentDown, fmt.Sprintf("restarted, but after %v: %s", wait, why))
		}
		select {
		case <-ctx.Done():
			return done(CodeCancelled, ctx.Err().Error())
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// restartService runs restart.yml on t: "" when the service restarted,
// else the failure's code and message.
func (d *Deployer) restartService(ctx context.Context, t target) (ErrorCode, string) {
	reg, err := builtin.Registry().Restrict("service")
	if err != nil {
		return CodeTaskFailed, err.Error()
	}
	pb, err := playbooks.Load("restart.yml", playbooks.Options{FS: restartFS, Modules: reg})
	if err != nil {
		return CodeTaskFailed, err.Error()
	}
	var code ErrorCode
	var msg string
	r := &provision.Runner{Inventory: t.inv, Modules: reg, Connections: d.opts.Connections, Sandbox: d.opts.Sandbox,
		Forks: 1, Limit: t.name, Keys: t.runKeys(),
		ExtraVars: map[string]any{"tender_restart_become": d.bundle.Become, "tender_restart_service": d.bundle.Service},
		Events: func(e provision.Event) {
			if e.Kind == provision.HostResult && (e.Status == provision.StatusFailed || e.Status == provision.StatusUnreachable) && code == "" {
				code, msg = eventCode(e), strings.TrimSpace(string(e.Status)+": "+e.Msg)
			}
		}}
	if _, err := r.Run(ctx, pb); err != nil && code == "" {
		return runCode(ctx, err), err.Error()
	}
	return code, msg
}
