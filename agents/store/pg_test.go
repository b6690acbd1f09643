package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
)

// pgExec runs statements on the database at url, as an operator would.
func pgExec(t *testing.T, url string, stmts ...string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range stmts {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// pgTables counts the tables in the database's public schema.
func pgTables(t *testing.T, url string) int {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE schemaname = 'public'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestPGReadOnlyChangesNothing(t *testing.T) {
	ctx := context.Background()
	url := pgDatabase(t)
	s, err := store.OpenState(ctx, url, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Deployed(ctx, "h1", "a"); ok || err != nil {
		t.Errorf("an empty database: ok=%v err=%v", ok, err)
	}
	if rs, ds, err := s.History(ctx, "", 10); len(rs)+len(ds) != 0 || err != nil {
		t.Errorf("history of an empty database: %v %v %v", rs, ds, err)
	}
	if _, _, err := s.Lease(ctx, "h1", "a", "me", time.Hour, nil); err == nil {
		t.Error("a read-only (empty) ledger took a write")
	}
	s.Close()
	if n := pgTables(t, url); n != 0 {
		t.Errorf("opening read-only created %d tables", n)
	}

	w := closeWith(t, func() (store.Ledger, error) { return store.OpenState(ctx, url, false) })
	id, _ := w.StartDeployment(ctx, agents.DeploymentRecord{Host: "h1", Agent: "a", Reason: "new"})
	if err := w.FinishDeployment(ctx, id, agents.OutcomeOK, "", []agents.FileRecord{{Path: "/x", MD5: "aa", Version: "1"}}); err != nil {
		t.Fatal(err)
	}
	r := closeWith(t, func() (store.Ledger, error) { return store.OpenState(ctx, url, true) })
	if files, ok, err := r.Deployed(ctx, "h1", "a"); !ok || err != nil || files[0].MD5 != "aa" {
		t.Errorf("read-only Deployed: %v %v %v", files, ok, err)
	}
	if _, _, err := r.Lease(ctx, "h1", "a", "me", time.Hour, nil); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("a read-only ledger took a write: %v", err)
	}
	if err := r.Forget(ctx, "h1"); err == nil {
		t.Error("a read-only ledger forgot a host")
	}
	if _, ok, _ := w.Deployed(ctx, "h1", "a"); !ok {
		t.Error("the read-only ledger's Forget removed the host")
	}
}

func TestPGRefusesNewerSchema(t *testing.T) {
	ctx := context.Background()
	url := pgDatabase(t)
	closeWith(t, func() (store.Ledger, error) { return store.OpenState(ctx, url, false) }).Close()
	pgExec(t, url, `UPDATE tender_schema SET version = version + 1`)
	for _, readOnly := range []bool{false, true} {
		if _, err := store.OpenState(ctx, url, readOnly); err == nil || !strings.Contains(err.Error(), "schema version") {
			t.Errorf("newer schema (read-only %v): err = %v", readOnly, err)
		}
	}
	pgExec(t, url, `UPDATE tender_schema SET version = version - 1`)
	closeWith(t, func() (store.Ledger, error) { return store.OpenState(ctx, url, false) })
}

// TestPGErrorsHideThePassword: whatever fails in opening a ledger by URL,
// the error names the URL without its password.
func TestPGErrorsHideThePassword(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, u := range []string{
		"postgres://op:hunter2@127.0.0.1:1/ledger?connect_timeout=5",          // nothing listens
		"postgresql://op:hunter2@127.0.0.1:1/ledger?sslmode=bogus",            // pgx rejects the config
		"postgres://op@127.0.0.1:1/ledger?password=hunter2&connect_timeout=5", // the password as a parameter
		"postgres://op:hunter2@[::1/ledger",                                   // not a URL
	} {
		_, err := store.OpenState(ctx, u, false)
		if err == nil {
			t.Errorf("%s opened", store.RedactURL(u))
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("the error shows the password: %v", err)
		}
		if !strings.Contains(err.Error(), "ledger postgres") {
			t.Errorf("the error does not name the ledger: %v", err)
		}
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://op:hunter2@db.example/ledger":                 "postgres://op:xxxxx@db.example/ledger",
		"postgres://op@db.example/ledger?password=hunter2&x=1":    "postgres://op@db.example/ledger?password=xxxxx&x=1",
		"postgres://op@db.example/ledger":                         "postgres://op@db.example/ledger",
		"postgresql://db.example:5433/ledger?sslmode=verify-full": "postgresql://db.example:5433/ledger?sslmode=verify-full",
		"postgres://op:hunter2@[::1/ledger":                       "postgres://op:xxxxx@[::1/ledger",
	} {
		if got := store.RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOpenStateChoosesTheStore(t *testing.T) {
	for state, url := range map[string]bool{
		"postgres://h/db": true, "postgresql://h/db": true, "POSTGRES://h/db": true,
		"/var/lib/tender/ledger.db": false, "ledger.db": false, "postgres.db": false, "./postgres://x": false,
	} {
		if got := store.IsURL(state); got != url {
			t.Errorf("IsURL(%q) = %v, want %v", state, got, url)
		}
	}
	s := closeWith(t, func() (store.Ledger, error) {
		return store.OpenState(context.Background(), t.TempDir()+"/l.db", false)
	})
	if _, ok := s.(*store.Store); !ok {
		t.Errorf("a path opened a %T", s)
	}
}

// TestPGMigrationsMatchSQLite: both stores have the same schema versions.
func TestPGMigrationsMatchSQLite(t *testing.T) {
	if sq, pg := store.SchemaVersions(); sq != pg {
		t.Errorf("SQLite has %d schema versions, PostgreSQL %d", sq, pg)
	}
}
