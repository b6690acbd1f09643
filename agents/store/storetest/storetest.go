// Package storetest is the conformance suite of the agents ledger: one
// set of tests that every store.Ledger (SQLite, PostgreSQL) must pass,
// and a throwaway PostgreSQL server to run it against.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
)

// Opener opens one database, a new connection (pool) each call, as
// another controller process would.
type Opener func(t *testing.T) store.Ledger

// Run runs the suite. fresh makes a new, empty database for one test and
// returns how to open it; the ledgers it opens are closed by the caller's
// cleanup.
func Run(t *testing.T, fresh func(t *testing.T) Opener) {
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, Opener)
	}{
		{"DeploymentWritesLedgerOnlyOnSuccess", deploymentWritesLedgerOnlyOnSuccess},
		{"FinishDeploymentNeedsTheLease", finishDeploymentNeedsTheLease},
		{"UnfinishedDeploymentsAndRolloutsAreMarkedInterrupted", unfinishedAreMarkedInterrupted},
		{"GoneOwnersDeploymentsAreInterrupted", goneOwnersDeploymentsAreInterrupted},
		{"LeaseExpiryOwnerAndTakeover", leaseExpiryOwnerAndTakeover},
		{"ExpiredLeaseTakenOverFencesTheOldOwner", expiredLeaseFencesOldOwner},
		{"ConcurrentLeaseTakers", concurrentLeaseTakers},
		{"ConcurrentOpensAndReopen", concurrentOpensAndReopen},
		{"DeployedAllMatchesDeployed", deployedAllMatchesDeployed},
		{"RolloutAbandonedWhenLeaseExpires", rolloutAbandonedWhenLeaseExpires},
		{"RunHistoryRoundTrip", runHistoryRoundTrip},
		{"FactCacheRoundTrip", factCacheRoundTrip},
		{"WavesOfRollouts", wavesOfRollouts},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, fresh(t)) })
	}
}

func deploymentWritesLedgerOnlyOnSuccess(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t)
	if _, ok, err := s.Deployed(ctx, "h1", "hello"); ok || err != nil {
		t.Fatalf("fresh ledger: ok=%v err=%v", ok, err)
	}
	rid, err := s.StartRollout(ctx, agents.RolloutRecord{Agent: "hello", Version: "1", Owner: "me", Hosts: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	files := []agents.FileRecord{{Path: "/opt/a", MD5: "aa", Size: 1, Version: "1"}, {Path: "/opt/b", MD5: "bb", Size: 2, Version: "1"}}
	id, err := s.StartDeployment(ctx, agents.DeploymentRecord{Rollout: rid, Host: "h1", Agent: "hello", Reason: "new"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.FinishDeployment(ctx, id, agents.OutcomeOK, "", files); err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.Deployed(ctx, "h1", "hello")
	if err != nil || !ok || len(got) != 2 || got[0].MD5 != "aa" || got[1].Path != "/opt/b" || got[0].DeployedAt.IsZero() {
		t.Fatalf("after success: %+v ok=%v err=%v", got, ok, err)
	}
	if got[1].Size != 2 || got[1].Version != "1" || time.Since(got[0].DeployedAt).Abs() > time.Hour {
		t.Errorf("recorded file: %+v", got[1])
	}
	// A failed upgrade keeps the old rows and records a redacted error.
	id, _ = s.StartDeployment(ctx, agents.DeploymentRecord{Rollout: rid, Host: "h1", Agent: "hello", Reason: "upgrade"})
	if err := s.FinishDeployment(ctx, id, agents.OutcomeFailed, "sudo: password=hunter2 wrong", nil); err != nil {
		t.Fatal(err)
	}
	got, _, _ = s.Deployed(ctx, "h1", "hello")
	if len(got) != 2 || got[0].MD5 != "aa" {
		t.Fatalf("failed deploy changed the ledger: %+v", got)
	}
	rs, ds, err := s.History(ctx, "h1", 10)
	if err != nil || len(ds) != 2 {
		t.Fatalf("history: %+v %v", ds, err)
	}
	if strings.Contains(ds[0].Error, "hunter2") || ds[0].Outcome != agents.OutcomeFailed {
		t.Errorf("recorded error %q outcome %q", ds[0].Error, ds[0].Outcome)
	}
	if ds[0].Rollout != rid || ds[0].Reason != "upgrade" || ds[0].Finished.Before(ds[0].Started) || ds[0].Finished.IsZero() {
		t.Errorf("recorded deployment %+v", ds[0])
	}
	if len(rs) != 1 || rs[0].ID != rid || rs[0].Owner != "me" || rs[0].Outcome != agents.OutcomeRunning || !rs[0].Finished.IsZero() {
		t.Errorf("rollouts %+v", rs)
	}
	if err := s.FinishRollout(ctx, rid, agents.OutcomeOK); err != nil {
		t.Fatal(err)
	}
	if rs, _, _ = s.History(ctx, "", 10); rs[0].Outcome != agents.OutcomeOK || rs[0].Finished.IsZero() {
		t.Errorf("finished rollout %+v", rs[0])
	}
	if err := s.Forget(ctx, "h1"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Deployed(ctx, "h1", "hello"); ok {
		t.Error("forgotten host still has ledger rows")
	}
	if _, ds, _ := s.History(ctx, "h1", 10); len(ds) != 0 {
		t.Errorf("forgotten host still has deployments: %+v", ds)
	}
}

// deployedAllMatchesDeployed: the ledger read of every host at once (the
// plan's) returns what Deployed returns host by host, for that agent only.
func deployedAllMatchesDeployed(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t)
	bs, ok := s.(agents.BulkStore)
	if !ok {
		t.Fatalf("%T is not an agents.BulkStore", s)
	}
	for i, h := range []string{"h1", "h2", "h3"} {
		for _, agent := range []string{"hello", "other"} {
			if agent == "hello" && h == "h3" {
				continue
			}
			id, err := s.StartDeployment(ctx, agents.DeploymentRecord{Host: h, Agent: agent, Reason: "new"})
			if err != nil {
				t.Fatal(err)
			}
			files := []agents.FileRecord{{Path: "/opt/b", MD5: fmt.Sprint("b", i), Size: 2, Version: "1"}, {Path: "/opt/a", MD5: agent, Size: 1, Version: "1"}}
			if err := s.FinishDeployment(ctx, id, agents.OutcomeOK, "", files); err != nil {
				t.Fatal(err)
			}
		}
	}
	all, err := bs.DeployedAll(ctx, "hello")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 {
		t.Errorf("DeployedAll(hello) has %d hosts, want h1 and h2: %+v", len(all), all)
	}
	for _, h := range []string{"h1", "h2", "h3"} {
		want, _, err := s.Deployed(ctx, h, "hello")
		if err != nil {
			t.Fatal(err)
		}
		if got := all[h]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: DeployedAll %+v, Deployed %+v", h, got, want)
		}
	}
}

func finishDeploymentNeedsTheLease(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t)
	if ok, _, err := s.Lease(ctx, "h1", "a", "me", time.Hour, nil); !ok || err != nil {
		t.Fatal(ok, err)
	}
	id, err := s.StartDeployment(ctx, agents.DeploymentRecord{Host: "h1", Agent: "a", Reason: "new", Owner: "me"})
	if err != nil {
		t.Fatal(err)
	}
	if ok, _, _ := s.Lease(ctx, "h1", "a", "thief", time.Hour, func(string) bool { return true }); !ok {
		t.Fatal("takeover")
	}
	files := []agents.FileRecord{{Path: "/opt/a", MD5: "aa", Version: "1"}}
	if err := s.FinishDeployment(ctx, id, agents.OutcomeOK, "", files); !errors.Is(err, agents.ErrLeaseLost) || !strings.Contains(err.Error(), "thief") {
		t.Errorf("finish without the lease: %v", err)
	}
	if _, ok, _ := s.Deployed(ctx, "h1", "a"); ok {
		t.Error("ledger rows written without the lease")
	}
	_, ds, _ := s.History(ctx, "h1", 1)
	if ds[0].Outcome != agents.OutcomeRunning {
		t.Errorf("the refused finish was not rolled back: %+v", ds[0])
	}
	s.Release(ctx, "h1", "a", "thief")
	s.Lease(ctx, "h1", "a", "me", time.Hour, nil)
	if err := s.FinishDeployment(ctx, id, agents.OutcomeOK, "", files); err != nil {
		t.Errorf("finish with the lease: %v", err)
	}
}

func unfinishedAreMarkedInterrupted(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t)
	r1, _ := s.StartRollout(ctx, agents.RolloutRecord{Agent: "a", Owner: "dead"}, nil)
	d1, _ := s.StartDeployment(ctx, agents.DeploymentRecord{Rollout: r1, Host: "h", Agent: "a", Reason: "new"})
	r2, err := s.StartRollout(ctx, agents.RolloutRecord{Agent: "a", Owner: "me"}, func(o string) bool { return o == "dead" })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartDeployment(ctx, agents.DeploymentRecord{Rollout: r2, Host: "h", Agent: "a", Reason: "new"}); err != nil {
		t.Fatal(err)
	}
	rs, ds, _ := s.History(ctx, "", 10)
	if rs[1].ID != r1 || rs[1].Outcome != agents.OutcomeInterrupted || rs[0].Outcome != agents.OutcomeRunning {
		t.Errorf("rollouts: %+v", rs)
	}
	if ds[1].ID != d1 || ds[1].Outcome != agents.OutcomeInterrupted || ds[1].Finished.IsZero() {
		t.Errorf("deployments: %+v", ds)
	}
}

// goneOwnersDeploymentsAreInterrupted: a killed controller's deployments,
// on hosts no one deploys again and reconnects outside any rollout
// included, are marked interrupted by the next rollout; a live owner's
// are not.
func goneOwnersDeploymentsAreInterrupted(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t)
	r1, _ := s.StartRollout(ctx, agents.RolloutRecord{Agent: "a", Owner: "dead"}, nil)
	inRollout, _ := s.StartDeployment(ctx, agents.DeploymentRecord{Rollout: r1, Host: "x", Agent: "a", Reason: "new"})
	reconnect, _ := s.StartDeployment(ctx, agents.DeploymentRecord{Host: "y", Agent: "a", Reason: "reconnect", Owner: "dead"})
	alive, _ := s.StartDeployment(ctx, agents.DeploymentRecord{Host: "z", Agent: "a", Reason: "reconnect", Owner: "alive"})
	if _, err := s.StartRollout(ctx, agents.RolloutRecord{Agent: "a", Owner: "me"}, func(o string) bool { return o == "dead" }); err != nil {
		t.Fatal(err)
	}
	_, ds, _ := s.History(ctx, "", 10)
	got := map[int64]string{}
	for _, d := range ds {
		got[d.ID] = d.Outcome
	}
	if got[inRollout] != agents.OutcomeInterrupted || got[reconnect] != agents.OutcomeInterrupted || got[alive] != agents.OutcomeRunning {
		t.Errorf("outcomes %v (in rollout %d, reconnect %d, alive %d)", got, inRollout, reconnect, alive)
	}
}

// leaseExpiryOwnerAndTakeover runs on the store's own clock (the
// database's, for a shared store): a short lease is held until it
// expires, and free after.
func leaseExpiryOwnerAndTakeover(t *testing.T, open Opener) {
	ctx := context.Background()
	s := open(t)
	if ok, _, err := s.Lease(ctx, "h", "a", "p1", time.Minute, nil); !ok || err != nil {
		t.Fatalf("first lease: %v %v", ok, err)
	}
	if ok, holder, _ := s.Lease(ctx, "h", "a", "p2", time.Minute, nil); ok || holder != "p1" {
		t.Errorf("second owner got a held lease (holder %q)", holder)
	}
	if ok, _, _ := s.Lease(ctx, "h", "a", "p1", time.Minute, nil); !ok {
		t.Error("the holder could not renew its lease")
	}
	const short = 700 * time.Millisecond
	taken := time.Now()
	if ok, _, _ := s.Lease(ctx, "h", "a", "p2", short, func(h string) bool { return h == "p1" }); !ok {
		t.Error("takeover of a gone holder failed")
	}
	if ok, holder, _ := s.Lease(ctx, "h", "a", "p3", time.Minute, nil); (ok || holder != "p2") && time.Since(taken) < short {
		t.Errorf("a lease was taken before it expired (holder %q)", holder)
	}
	time.Sleep(short + 100*time.Millisecond)
	if ok, _, _ := s.Lease(ctx, "h", "a", "p3", time.Minute, nil); !ok {
		t.Error("an expired lease was not taken")
	}
	if err := s.Release(ctx, "h", "a", "p1"); err != nil {
		t.Fatal(err)
	}
	if ok, _, _ := s.Lease(ctx, "h", "a", "p1", time.Minute, nil); ok {
		t.Error("a release by a non-holder freed the lease")
	}
	s.Release(ctx, "h", "a", "p3")
	if ok, _, _ := s.Lease(ctx, "h", "a", "p1", time.Minute, nil); !ok {
		t.Error("a released lease was not free")
	}
}

// expiredLeaseFencesOldOwner: two controllers (two connections to one
// database). The first's lease expires while it deploys; the second takes
// it. The first's writes are refused: it records no files, its release
// frees nothing, its renewal fails; the second's deploy is recorded.
func expiredLeaseFencesOldOwner(t *testing.T, open Opener) {
	ctx := context.Background()
	old, next := open(t), open(t)
	const short = 300 * time.Millisecond
	if ok, _, err := old.Lease(ctx, "h", "a", "old", short, nil); !ok || err != nil {
		t.Fatalf("lease: %v %v", ok, err)
	}
	oldID, err := old.StartDeployment(ctx, agents.DeploymentRecord{Host: "h", Agent: "a", Reason: "new", Owner: "old"})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(short + 100*time.Millisecond)
	if ok, holder, err := next.Lease(ctx, "h", "a", "next", time.Hour, nil); !ok || err != nil {
		t.Fatalf("an expired lease was not taken over: holder %q, %v", holder, err)
	}
	nextID, err := next.StartDeployment(ctx, agents.DeploymentRecord{Host: "h", Agent: "a", Reason: "new", Owner: "next"})
	if err != nil {
		t.Fatal(err)
	}
	err = old.FinishDeployment(ctx, oldID, agents.OutcomeOK, "", []agents.FileRecord{{Path: "/x", MD5: "old", Version: "1"}})
	if !errors.Is(err, agents.ErrLeaseLost) || !strings.Contains(err.Error(), "next") {
		t.Errorf("the fenced owner's finish: %v, want ErrLeaseLost naming next", err)
	}
	if err := old.Release(ctx, "h", "a", "old"); err != nil {
		t.Errorf("release of a lost lease: %v", err)
	}
	if ok, holder, _ := old.Lease(ctx, "h", "a", "old", time.Hour, nil); ok || holder != "next" {
		t.Errorf("the fenced owner renewed (ok %v, holder %q)", ok, holder)
	}
	if err := next.FinishDeployment(ctx, nextID, agents.OutcomeOK, "", []agents.FileRecord{{Path: "/x", MD5: "next", Version: "2"}}); err != nil {
		t.Fatal(err)
	}
	if files, ok, err := old.Deployed(ctx, "h", "a"); !ok || err != nil || len(files) != 1 || files[0].MD5 != "next" {
		t.Errorf("ledger after the takeover: %+v %v %v", files, ok, err)
	}
}

// concurrentLeaseTakers opens the ledger twice, as two tender processes
// would, and races them for the same leases: each is won once. Then
// every lease is left to expire, and the race for the expired leases is
// won once each too, and fences the first winners.
func concurrentLeaseTakers(t *testing.T, open Opener) {
	ctx := context.Background()
	stores := []store.Ledger{open(t), open(t)}
	const keys = 40
	race := func(round string, ttl time.Duration) map[string][]string {
		var mu sync.Mutex
		wins := map[string][]string{}
		var wg sync.WaitGroup
		for i, s := range stores {
			for g := 0; g < 3; g++ {
				wg.Add(1)
				owner := fmt.Sprintf("%s-proc%d-g%d", round, i, g)
				go func() {
					defer wg.Done()
					for k := 0; k < keys; k++ {
						host := fmt.Sprintf("h%d", k)
						ok, _, err := s.Lease(ctx, host, "a", owner, ttl, nil)
						if err != nil {
							t.Error(err)
							return
						}
						if ok {
							mu.Lock()
							wins[host] = append(wins[host], owner)
							mu.Unlock()
						}
					}
				}()
			}
		}
		wg.Wait()
		for k := 0; k < keys; k++ {
			if w := wins[fmt.Sprintf("h%d", k)]; len(w) != 1 {
				t.Errorf("%s: h%d leased by %v, want exactly one owner", round, k, w)
			}
		}
		return wins
	}
	start := time.Now()
	const ttl = 2 * time.Second
	first := race("first", ttl)
	end := time.Now()
	if end.Sub(start) >= ttl {
		t.Skipf("the first race took %s, longer than its leases last", end.Sub(start))
	}
	// Deployments by the first winners, then their leases expire.
	ids := map[string]int64{}
	for host, w := range first {
		id, err := stores[0].StartDeployment(ctx, agents.DeploymentRecord{Host: host, Agent: "a", Reason: "new", Owner: w[0]})
		if err != nil {
			t.Fatal(err)
		}
		ids[host] = id
	}
	// The last lease of the first race was taken just before end: wait
	// until it too has expired.
	time.Sleep(time.Until(end.Add(ttl + 200*time.Millisecond)))
	second := race("second", time.Hour)
	for host, id := range ids {
		err := stores[1].FinishDeployment(ctx, id, agents.OutcomeOK, "", []agents.FileRecord{{Path: "/x", MD5: "aa"}})
		if !errors.Is(err, agents.ErrLeaseLost) {
			t.Errorf("%s: the first winner %v wrote after %v took over: %v", host, first[host], second[host], err)
		}
	}
	for _, s := range stores {
		if c, ok := s.(interface{ IntegrityCheck(context.Context) error }); ok {
			if err := c.IntegrityCheck(ctx); err != nil {
				t.Error(err)
			}
		}
	}
}

// concurrentOpensAndReopen: controllers opening (and migrating) one new
// database at once all succeed, and reopening keeps what was recorded.
func concurrentOpensAndReopen(t *testing.T, open Opener) {
	ctx := context.Background()
	var wg sync.WaitGroup
	opened := make([]store.Ledger, 4)
	for i := range opened {
		wg.Add(1)
		go func() { defer wg.Done(); opened[i] = open(t) }()
	}
	wg.Wait()
	for _, s := range opened {
		if s == nil {
			t.FailNow()
		}
	}
	id, err := opened[0].StartDeployment(ctx, agents.DeploymentRecord{Host: "h", Agent: "a", Reason: "new"})
	if err != nil {
		t.Fatal(err)
	}
	if err := opened[1].FinishDeployment(ctx, id, agents.OutcomeOK, "", []agents.FileRecord{{Path: "/x", MD5: "aa"}}); err != nil {
		t.Fatal(err)
	}
	for _, s := range opened {
		s.Close()
	}
	if files, ok, err := open(t).Deployed(ctx, "h", "a"); !ok || err != nil || files[0].MD5 != "aa" {
		t.Errorf("after reopening: %+v %v %v", files, ok, err)
	}
}
