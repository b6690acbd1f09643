package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
)

// rolloutOf returns rollout id's row of the ledger's history.
func rolloutOf(t *testing.T, s store.Ledger, id int64) (store.Rollout, []store.Deployment) {
	t.Helper()
	rs, ds, err := s.History(context.Background(), "", 50)
	if err != nil {
		t.Fatal(err)
	}
	var mine []store.Deployment
	for _, d := range ds {
		if d.Rollout == id {
			mine = append(mine, d)
		}
	}
	for _, r := range rs {
		if r.ID == id {
			return r, mine
		}
	}
	t.Fatalf("rollout %d is not in the history", id)
	return store.Rollout{}, nil
}

// rolloutAbandonedWhenLeaseExpires: two controllers share the ledger. The
// first's rollout is renewed while it runs and stays running past its
// first lease; once renewals stop (the controller died) it is shown
// abandoned, with its unfinished deployment, to the other controller,
// before any write and after the other's next rollout records it. A
// rollout without a TTL, and one that finished, are never abandoned.
func rolloutAbandonedWhenLeaseExpires(t *testing.T, open Opener) {
	ctx := context.Background()
	first, second := open(t), open(t)
	const ttl = 600 * time.Millisecond
	id, err := first.StartRollout(ctx, agents.RolloutRecord{Agent: "hello", Version: "1", Owner: "c1", Hosts: 2, TTL: ttl}, nil)
	if err != nil {
		t.Fatal(err)
	}
	forever, err := first.StartRollout(ctx, agents.RolloutRecord{Agent: "other", Version: "1", Owner: "c1", Hosts: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	done, err := first.StartRollout(ctx, agents.RolloutRecord{Agent: "third", Version: "1", Owner: "c1", Hosts: 1, TTL: ttl}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.StartDeployment(ctx, agents.DeploymentRecord{Rollout: id, Host: "h1", Agent: "hello", Reason: "new", Owner: "c1"}); err != nil {
		t.Fatal(err)
	}
	finished, _ := first.StartDeployment(ctx, agents.DeploymentRecord{Rollout: id, Host: "h2", Agent: "hello", Reason: "new", Owner: "c1"})
	if err := first.FinishDeployment(ctx, finished, agents.OutcomeFailed, "boom", nil); err != nil {
		t.Fatal(err)
	}
	if err := first.FinishRollout(ctx, done, agents.OutcomeOK); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		time.Sleep(ttl / 3)
		if err := first.RenewRollout(ctx, id, ttl); err != nil {
			t.Fatal(err)
		}
	}
	// ttl has passed since the start: only the renewals keep it running
	if r, _ := rolloutOf(t, second, id); r.Outcome != agents.OutcomeRunning || !r.Finished.IsZero() {
		t.Fatalf("a renewed rollout: %+v", r)
	}
	renewed := time.Now()
	time.Sleep(ttl + 200*time.Millisecond)
	r, ds := rolloutOf(t, second, id)
	if r.Outcome != agents.OutcomeAbandoned || r.Finished.IsZero() || r.Finished.Before(renewed.Add(-time.Second)) {
		t.Errorf("an expired rollout, read: %+v", r)
	}
	for _, d := range ds {
		want := agents.OutcomeAbandoned
		if d.ID == finished {
			want = agents.OutcomeFailed
		}
		if d.Outcome != want {
			t.Errorf("deployment %d of the expired rollout: %q, want %q", d.ID, d.Outcome, want)
		}
	}
	if r, _ := rolloutOf(t, second, forever); r.Outcome != agents.OutcomeRunning {
		t.Errorf("a rollout without a TTL: %+v", r)
	}
	if r, _ := rolloutOf(t, second, done); r.Outcome != agents.OutcomeOK {
		t.Errorf("a finished rollout: %+v", r)
	}
	// The other controller's next rollout records it; a late renewal or
	// the dead controller's deployment finishing does not revive it.
	if _, err := second.StartRollout(ctx, agents.RolloutRecord{Agent: "hello", Version: "2", Owner: "c2", Hosts: 1, TTL: time.Minute}, nil); err != nil {
		t.Fatal(err)
	}
	if err := first.RenewRollout(ctx, id, time.Hour); err != nil {
		t.Fatal(err)
	}
	if r, ds := rolloutOf(t, second, id); r.Outcome != agents.OutcomeAbandoned || len(ds) != 2 {
		t.Errorf("the recorded abandoned rollout: %+v %+v", r, ds)
	}
}
