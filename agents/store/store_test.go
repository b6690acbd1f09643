package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
