package agents_test

import (
	"context"
	"testing"
	"time"

	"github.com/tender-sh/tender/agents"
)

// TestRolloutRenewedWhileRunning: a rollout that runs longer than its
// lease is renewed, so another controller reading the ledger sees it
// running, not abandoned, and it ends ok.
func TestRolloutRenewedWhileRunning(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "h1")
	f.write(t, "deploy.yml", playbook+"    - command: sleep 2\n")
	other := f.otherProcess(t)
	seen := make(chan string, 1)
	d := f.deployer(t, func(o *agents.Options) {
		o.LeaseTTL = 300 * time.Millisecond
		o.Events = func(e agents.Event) {
			if e.Kind == agents.HostTask && e.Task.Task == "command" {
				// The sleep started: past the lease, the other
				// controller reads the rollout.
				go func() {
					time.Sleep(900 * time.Millisecond)
					rs, _, err := other.History(ctx, "", 1)
					if err != nil || len(rs) != 1 {
						seen <- "history: " + err.Error()
						return
					}
					seen <- rs[0].Outcome
				}()
			}
		}
	})
	rep, err := d.Deploy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := <-seen; got != agents.OutcomeRunning {
		t.Errorf("while running, past its first lease, the rollout was %q", got)
	}
	rs, _, _ := other.History(ctx, "", 1)
	if len(rs) != 1 || rs[0].ID != rep.Rollout || rs[0].Outcome != agents.OutcomeOK {
		t.Errorf("after the deploy: %+v", rs)
	}
}
