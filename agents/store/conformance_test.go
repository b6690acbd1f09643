package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/agents/store"
	"github.com/tender-sh/tender/agents/store/storetest"
)

// pg is the test binary's PostgreSQL server; pgMissing says why there is
// none.
var (
	pg        *storetest.Postgres
	pgMissing error
)

func TestMain(m *testing.M) {
	if os.Getenv(leaseChildEnv) != "" {
		os.Exit(leaseChild())
	}
	pg, pgMissing = storetest.StartPostgres()
	code := m.Run()
	if pg != nil {
		pg.Stop()
	}
	os.Exit(code)
}

// closeWith opens a ledger with openFn and closes it when t ends.
func closeWith(t *testing.T, openFn func() (store.Ledger, error)) store.Ledger {
	t.Helper()
	s, err := openFn()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestSQLiteConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Opener {
		path := filepath.Join(t.TempDir(), "l.db")
		return func(t *testing.T) store.Ledger {
			return closeWith(t, func() (store.Ledger, error) { return store.OpenState(context.Background(), path, false) })
		}
	})
}

// pgDatabase makes a new database on the test server, or skips (fails
// under TENDER_REQUIRE_POSTGRES) when there is no server.
func pgDatabase(t *testing.T) string {
	t.Helper()
	storetest.Skip(t, pgMissing)
	return pg.NewDatabase(t)
}

func TestPostgresConformance(t *testing.T) {
	storetest.Skip(t, pgMissing)
	storetest.Run(t, func(t *testing.T) storetest.Opener {
		url := pgDatabase(t)
		return func(t *testing.T) store.Ledger {
			s := closeWith(t, func() (store.Ledger, error) { return store.OpenState(context.Background(), url, false) })
			if _, ok := s.(*store.PG); !ok {
				t.Fatalf("OpenState(%s) opened a %T, want *store.PG", url, s)
			}
			return s
		}
	})
}

// recordTB records what Skip asks of a test.
type recordTB struct {
	testing.TB
	fatal, skip string
}

func (r *recordTB) Helper()                      {}
func (r *recordTB) Fatalf(f string, args ...any) { r.fatal = fmt.Sprintf(f, args...) }
func (r *recordTB) Skipf(f string, args ...any)  { r.skip = fmt.Sprintf(f, args...) }

// TestSkipUnlessRequired: without a server the PostgreSQL tests skip,
// saying why, or fail when TENDER_REQUIRE_POSTGRES is set (as .ci/run
// sets it); with a server they run.
func TestSkipUnlessRequired(t *testing.T) {
	for _, tc := range []struct {
		env         string
		reason      error
		fatal, skip bool
	}{
		{"", storetest.ErrNoPostgres, false, true},
		{"0", storetest.ErrNoPostgres, false, true},
		{"1", storetest.ErrNoPostgres, true, false},
		{"1", nil, false, false},
	} {
		t.Setenv(storetest.RequireEnv, tc.env)
		r := &recordTB{TB: t}
		storetest.Skip(r, tc.reason)
		if (r.fatal != "") != tc.fatal || (r.skip != "") != tc.skip {
			t.Errorf("%s=%q, reason %v: fatal %q, skip %q", storetest.RequireEnv, tc.env, tc.reason, r.fatal, r.skip)
		}
		if msg := r.fatal + r.skip; tc.reason != nil && !strings.Contains(msg, "apt-get install postgresql") {
			t.Errorf("the message does not say what to install: %q", msg)
		}
	}
}

// TestCIRequiresPostgres: CI installs PostgreSQL for the tests and makes
// its tests required, so they cannot silently skip there.
func TestCIRequiresPostgres(t *testing.T) {
	run, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(run), "\nexport "+storetest.RequireEnv+"=1\n") {
		t.Errorf(".ci/run does not export %s=1", storetest.RequireEnv)
	}
	install, err := os.ReadFile("../../.ci/install.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"unit", "test"} {
		found := false
		for _, line := range strings.Split(string(install), "\n") {
			if strings.HasPrefix(line, mode+") ") {
				found = strings.Contains(line, " postgresql ") || strings.Contains(line, " postgresql)")
			}
		}
		if !found {
			t.Errorf(".ci/install.sh %s does not install postgresql", mode)
		}
	}
}
