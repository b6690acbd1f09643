package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
)

// TestPGRidesOutARestart: while the database restarts, the ledger's
// operations wait for it and then succeed, instead of failing the hosts a
// controller is deploying; and one that cannot wait (its ctx ends) fails.
func TestPGRidesOutARestart(t *testing.T) {
	url := pgDatabase(t)
	ctx := context.Background()
	s, err := store.OpenState(ctx, url, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if ok, _, err := s.Lease(ctx, "h1", "a", "me", time.Hour, nil); !ok || err != nil {
		t.Fatalf("lease: %v %v", ok, err)
	}
	id, err := s.StartDeployment(ctx, agents.DeploymentRecord{Host: "h1", Agent: "a", Owner: "me", Reason: "new"})
	if err != nil {
		t.Fatal(err)
	}
	restarted := make(chan error, 1)
	go func() { restarted <- pg.Restart(2 * time.Second) }()
	// Wait until the server is down.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		c, err := pgx.Connect(ctx, url)
		if err != nil {
			break
		}
		c.Close(ctx)
		if time.Now().After(deadline) {
			t.Fatal("the server did not go down")
		}
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if _, _, err := s.Deployed(short, "h1", "a"); err == nil {
		t.Error("a read whose context ended during the outage succeeded")
	}
	files := []agents.FileRecord{{Path: "/opt/a", MD5: "0123456789abcdef0123456789abcdef", Size: 1, Version: "1"}}
	if err := s.FinishDeployment(ctx, id, agents.OutcomeOK, "", files); err != nil {
		t.Fatalf("finishing a deployment across the restart: %v", err)
	}
	if err := <-restarted; err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.Deployed(ctx, "h1", "a")
	if err != nil || !ok || len(got) != 1 || got[0].MD5 != files[0].MD5 {
		t.Errorf("after the restart the ledger holds %+v %v %v", got, ok, err)
	}
	if ok, _, err := s.Lease(ctx, "h1", "a", "me", time.Hour, nil); !ok || err != nil {
		t.Errorf("renewing the lease after the restart: %v %v", ok, err)
	}
}
