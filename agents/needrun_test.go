package agents_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/tender-sh/tender/agents"
)

// TestNeedRunAndForceRun: once deployed, the hosts are up to date; the
// need-run hook is asked about each (and only those), and the hosts it
// wants (or cannot judge) are redeployed; ForceRun forces one call only.
func TestNeedRunAndForceRun(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "h1", "h2", "h3")
	if _, err := f.deployer(t, nil).Deploy(ctx); err != nil {
		t.Fatal(err)
	}
	var asked atomic.Int64
	d := f.deployer(t, func(o *agents.Options) {
		o.NeedRun = func(ctx context.Context, host string) (bool, string, error) {
			asked.Add(1)
			switch host {
			case "h1":
				return true, "the agent's config was edited", nil
			case "h2":
				return false, "", errors.New("could not ask the agent")
			}
			return false, "", nil
		}
	})
	plan, err := d.Plan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"h1": "repair/needs run/the agent's config was edited",
		"h2": "repair/needs run/need-run check failed: could not ask the agent", "h3": "skip/in-sync"}
	for _, dec := range plan {
		got := string(dec.Action) + "/" + string(dec.Status)
		if dec.Action != agents.ActionSkip {
			got += "/" + dec.Reason
		}
		if got != want[dec.Host] {
			t.Errorf("%s: %q, want %q", dec.Host, got, want[dec.Host])
		}
	}
	if asked.Load() != 3 {
		t.Errorf("the hook was asked %d times, want 3", asked.Load())
	}
	os.Remove(filepath.Join(f.root, "init-h1"))
	rep, err := d.Deploy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(rep); got != "h1=repair/deployed h2=repair/deployed h3=skip/skipped" {
		t.Errorf("deploy: %s", got)
	}
	if _, err := os.Stat(filepath.Join(f.root, "init-h1")); err != nil {
		t.Errorf("h1 was not redeployed: %v", err)
	}
	// ForceRun: this call only; the hook is not asked about forced hosts.
	asked.Store(0)
	plan, _ = d.Plan(ctx, agents.ForceRun())
	for _, dec := range plan {
		if dec.Action != agents.ActionForce {
			t.Errorf("forced plan: %+v", dec)
		}
	}
	if asked.Load() != 0 {
		t.Errorf("the hook was asked about forced hosts %d times", asked.Load())
	}
	plan, _ = d.Plan(ctx)
	if plan[2].Action != agents.ActionSkip {
		t.Errorf("the next plan is forced too: %+v", plan[2])
	}
}

// TestRunVars: a call's variables reach the playbook of that call only,
// over Options.ExtraVars; tender's own still win.
func TestRunVars(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "h1", "h2")
	d := f.deployer(t, func(o *agents.Options) { o.ExtraVars = map[string]any{"fail_hosts": []any{"h2"}} })
	rep, err := d.Deploy(ctx, agents.RunVars(map[string]any{"fail_hosts": []any{"h1"}, "init": "not tender's"}))
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(rep); got != "h1=new/failed h2=new/deployed" {
		t.Errorf("with the call's vars: %s", got)
	}
	if b, _ := os.ReadFile(filepath.Join(f.root, "init-h2")); string(b) != "True" {
		t.Errorf("init is %q: the call's var won over tender's", b)
	}
	rep, err = d.Deploy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(rep); got != "h1=new/deployed h2=skip/skipped" {
		t.Errorf("without them: %s", got)
	}
	if res, err := d.Reconnect(ctx, "h2"); err != nil || res.Outcome != agents.HostFailed {
		t.Errorf("reconnect with Options' vars: %+v %v", res, err)
	}
	if res, err := d.Reconnect(ctx, "h2", agents.RunVars(map[string]any{"fail_hosts": []any{}})); err != nil || res.Outcome != agents.HostDeployed {
		t.Errorf("reconnect with the call's vars: %+v %v", res, err)
	}
}
