package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// A ledger an older tender left at schema 4 (no waves, no fact cache)
// reads, read-only, as one whose deployments ran in no wave and whose
// fact cache is empty: its history is not lost to a missing column.
func TestReadOnlyLedgerBeforeWaves(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	for v, m := range migrations[:schemaWaves-1] {
		if _, err := db.Exec(m); err != nil {
			t.Fatal(err)
		}
		db.Exec(fmt.Sprintf("PRAGMA user_version = %d", v+1))
	}
	if _, err := db.Exec(`INSERT INTO rollouts (id, agent, version, owner, hosts, summary, started, outcome) VALUES (1, 'a', '1', 'o', 1, '', 1, 'ok');
		INSERT INTO deployments (rollout, host, agent, reason, started, finished, outcome) VALUES (1, 'h1', 'a', 'new', 1, 2, 'ok')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, ds, err := s.History(ctx, "", 5)
	if err != nil || len(ds) != 1 || ds[0].Host != "h1" || ds[0].Wave != 0 {
		t.Fatalf("history %+v %v", ds, err)
	}
	if ws, err := s.Waves(ctx, []int64{1}); err != nil || len(ws) != 0 {
		t.Fatalf("waves %+v %v", ws, err)
	}
	if _, _, ok, err := s.Facts(ctx, "h1"); ok || err != nil {
		t.Fatalf("facts %v %v", ok, err)
	}
}

// An entry older than the fact cache's timeout is not read; a younger
// one is.
func TestFactCacheTimeout(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "l.db"))
	defer s.Close()
	s.now = func() time.Time { return time.Now().Add(-2 * time.Hour) }
	if err := NewFactCache(s, "", 0).Set("h1", map[string]any{"a": 1}); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := NewFactCache(s, "", time.Hour).Get("h1"); ok || err != nil {
		t.Fatalf("expired entry read: %v %v", ok, err)
	}
	if got, ok, err := NewFactCache(s, "", 3*time.Hour).Get("h1"); !ok || err != nil || got["a"] != 1 {
		t.Fatalf("fresh entry: %v %v %v", got, ok, err)
	}
}
