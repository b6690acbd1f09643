package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tender-sh/tender/agents"
)

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestOpenCreatesPrivateFileAndMigrates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "tender", "ledger.db")
	s := open(t, path)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("ledger mode %v, want 0600", st.Mode().Perm())
	}
	var v int
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != len(migrations) {
		t.Errorf("user_version %d (%v), want %d", v, err, len(migrations))
	}
	var mode string
	if err := s.db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode %q (%v), want wal", mode, err)
	}
	if err := s.IntegrityCheck(context.Background()); err != nil {
		t.Error(err)
	}
	s.Close()
	// Reopening migrates nothing and keeps the data.
	open(t, path)
}

func TestOpenRefusesNewerSchemaAndBadPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.db")
	s := open(t, path)
	if _, err := s.db.Exec(fmt.Sprintf("PRAGMA user_version = %d", len(migrations)+1)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(context.Background(), path); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("newer schema: err = %v", err)
	}
	dir := t.TempDir()
	if _, err := Open(context.Background(), dir); err == nil {
		t.Error("a directory as the ledger path opened")
	}
}

func TestDeploymentWritesLedgerOnlyOnSuccess(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "l.db"))
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
	// A failed upgrade keeps the old rows and records a redacted error.
	id, _ = s.StartDeployment(ctx, agents.DeploymentRecord{Rollout: rid, Host: "h1", Agent: "hello", Reason: "upgrade"})
	if err := s.FinishDeployment(ctx, id, agents.OutcomeFailed, "sudo: password=hunter2 wrong", nil); err != nil {
		t.Fatal(err)
	}
	got, _, _ = s.Deployed(ctx, "h1", "hello")
	if len(got) != 2 || got[0].MD5 != "aa" {
		t.Fatalf("failed deploy changed the ledger: %+v", got)
	}
	_, ds, err := s.History(ctx, "h1", 10)
	if err != nil || len(ds) != 2 {
		t.Fatalf("history: %+v %v", ds, err)
	}
	if strings.Contains(ds[0].Error, "hunter2") || ds[0].Outcome != agents.OutcomeFailed {
		t.Errorf("recorded error %q outcome %q", ds[0].Error, ds[0].Outcome)
	}
	if err := s.Forget(ctx, "h1"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Deployed(ctx, "h1", "hello"); ok {
		t.Error("forgotten host still has ledger rows")
	}
}

func TestFinishDeploymentNeedsTheLease(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "l.db"))
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

func TestUnfinishedDeploymentsAndRolloutsAreMarkedInterrupted(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "l.db"))
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

// TestGoneOwnersDeploymentsAreInterrupted: a killed controller's
// deployments, on hosts no one deploys again and reconnects outside any
// rollout included, are marked interrupted by the next rollout; a live
// owner's are not.
func TestGoneOwnersDeploymentsAreInterrupted(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "l.db"))
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

func TestLeaseExpiryOwnerAndTakeover(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "l.db"))
	now := time.Unix(1000, 0)
	s.now = func() time.Time { return now }
	if ok, _, err := s.Lease(ctx, "h", "a", "p1", time.Minute, nil); !ok || err != nil {
		t.Fatalf("first lease: %v %v", ok, err)
	}
	if ok, holder, _ := s.Lease(ctx, "h", "a", "p2", time.Minute, nil); ok || holder != "p1" {
		t.Errorf("second owner got a held lease (holder %q)", holder)
	}
	if ok, _, _ := s.Lease(ctx, "h", "a", "p1", time.Minute, nil); !ok {
		t.Error("the holder could not renew its lease")
	}
	if ok, _, _ := s.Lease(ctx, "h", "a", "p2", time.Minute, func(h string) bool { return h == "p1" }); !ok {
		t.Error("takeover of a gone holder failed")
	}
	now = now.Add(2 * time.Minute)
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

// TestConcurrentLeaseTakers opens the ledger twice, as two tender
// processes would, and races them for the same leases: each is won once.
func TestConcurrentLeaseTakers(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "l.db")
	stores := []*Store{open(t, path), open(t, path)}
	const keys = 40
	var mu sync.Mutex
	wins := map[string][]string{}
	var wg sync.WaitGroup
	for i, s := range stores {
		for g := 0; g < 3; g++ {
			wg.Add(1)
			owner := fmt.Sprintf("proc%d-g%d", i, g)
			go func() {
				defer wg.Done()
				for k := 0; k < keys; k++ {
					host := fmt.Sprintf("h%d", k)
					ok, _, err := s.Lease(ctx, host, "a", owner, time.Hour, nil)
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
			t.Errorf("h%d leased by %v, want exactly one owner", k, w)
		}
	}
	if err := stores[0].IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"login failed: password=s3cr3t for root": "login failed: password=******** for root",
		`{"token": "abc123", "x": 1}`:            `{"token": "********", "x": 1}`,
		"nothing secret here":                    "nothing secret here",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDefaultPathAndSidecarModes(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/var/state")
	if p, err := DefaultPath(); err != nil || p != "/var/state/tender/ledger.db" {
		t.Errorf("DefaultPath = %q, %v", p, err)
	}
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "/home/op")
	if p, _ := DefaultPath(); p != "/home/op/.local/state/tender/ledger.db" {
		t.Errorf("DefaultPath without XDG_STATE_HOME = %q", p)
	}
	path := filepath.Join(t.TempDir(), "l.db")
	s := open(t, path)
	if _, err := s.StartRollout(context.Background(), agents.RolloutRecord{Agent: "a"}, nil); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", p, st.Mode().Perm())
		}
	}
}

func TestOpenReadOnlyChangesNothing(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	missing := filepath.Join(dir, "sub", "l.db")
	s, err := OpenReadOnly(ctx, missing)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Deployed(ctx, "h1", "a"); ok || err != nil {
		t.Errorf("missing ledger: ok=%v err=%v", ok, err)
	}
	if _, _, err := s.History(ctx, "", 10); err != nil {
		t.Errorf("history of a missing ledger: %v", err)
	}
	if _, _, err := s.Lease(ctx, "h1", "a", "me", time.Hour, nil); err == nil {
		t.Error("a read-only (missing) ledger took a write")
	}
	s.Close()
	if _, err := os.Stat(filepath.Dir(missing)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("opening a missing ledger read-only created something: %v", err)
	}

	path := filepath.Join(dir, "l.db")
	w := open(t, path)
	id, _ := w.StartDeployment(ctx, agents.DeploymentRecord{Host: "h1", Agent: "a", Reason: "new"})
	w.FinishDeployment(ctx, id, agents.OutcomeOK, "", []agents.FileRecord{{Path: "/x", MD5: "aa", Version: "1"}})
	w.db.Exec("PRAGMA user_version = 1") // as an older tender left it
	w.Close()
	before, _ := os.Stat(path)
	s, err = OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if files, ok, err := s.Deployed(ctx, "h1", "a"); !ok || err != nil || files[0].MD5 != "aa" {
		t.Errorf("read-only Deployed: %v %v %v", files, ok, err)
	}
	if _, _, err := s.Lease(ctx, "h1", "a", "me", time.Hour, nil); err == nil {
		t.Error("a read-only ledger took a write")
	}
	var v int
	s.db.QueryRow("PRAGMA user_version").Scan(&v)
	after, _ := os.Stat(path)
	if v != 1 || !after.ModTime().Equal(before.ModTime()) || after.Size() != before.Size() {
		t.Errorf("the read-only open changed the ledger: version %d, %v %d -> %v %d", v, before.ModTime(), before.Size(), after.ModTime(), after.Size())
	}
}

func TestOpenMakesAnExistingLedgerPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.db")
	open(t, path).Close()
	os.Chmod(path, 0o644)
	open(t, path)
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
}
