package store

import (
	"context"
	"net/url"
	"regexp"
	"strings"

	"github.com/tender-sh/tender/agents"
)

// Ledger is an open ledger of either kind, SQLite (*Store) or PostgreSQL
// (*PG): the agents.Store a Deployer needs, the history the CLI prints,
// and Close. Implementations are safe for concurrent use.
type Ledger interface {
	agents.Store
	// History returns the last limit rollouts and deployments, newest
	// first, optionally only those of one host ("" for all).
	History(ctx context.Context, host string, limit int) ([]Rollout, []Deployment, error)
	// StartRun, AddRunResults, FinishRun, Runs, RunResults and PruneRuns
	// keep the run history: every tender play and tender run, each
	// host's result of each task (see Store's).
	StartRun(ctx context.Context, r Run) (int64, error)
	AddRunResults(ctx context.Context, id int64, rs []RunResult) error
	FinishRun(ctx context.Context, id int64, status, recap string) error
	Runs(ctx context.Context, limit int) ([]Run, error)
	RunResults(ctx context.Context, id int64) (Run, []RunResult, error)
	PruneRuns(ctx context.Context, keep int) (int, error)
	// Waves returns what the waves of the given rollouts did (see
	// Store.Waves).
	Waves(ctx context.Context, rollouts []int64) ([]Wave, error)
	// FactStore holds the fact cache's entries (fact_caching = ledger).
	FactStore
	// Close releases the ledger's connections.
	Close() error
}

var (
	_ Ledger = (*Store)(nil)
	_ Ledger = (*PG)(nil)
)

// IsURL reports whether state names a PostgreSQL database
// (postgres://… or postgresql://…) rather than a SQLite file.
func IsURL(state string) bool {
	lower := strings.ToLower(state)
	return strings.HasPrefix(lower, "postgres://") || strings.HasPrefix(lower, "postgresql://")
}

// OpenState opens the ledger that --state names: a postgres:// or
// postgresql:// URL opens the shared ledger in PostgreSQL (OpenPG), any
// other value is the path of a SQLite file (Open). readOnly opens it for
// reading only: nothing is created, migrated or written (OpenReadOnly,
// OpenPGReadOnly).
func OpenState(ctx context.Context, state string, readOnly bool) (Ledger, error) {
	switch {
	case IsURL(state) && readOnly:
		return OpenPGReadOnly(ctx, state)
	case IsURL(state):
		return OpenPG(ctx, state)
	case readOnly:
		return OpenReadOnly(ctx, state)
	default:
		return Open(ctx, state)
	}
}

// userPassword matches the user information of a URL that carries a
// password, for URLs net/url cannot parse.
var userPassword = regexp.MustCompile(`^([a-zA-Z][a-zA-Z0-9+.-]*://[^:/@]*:)[^@]*@`)

// RedactURL returns the URL with its password (in the user information or
// a password= parameter) replaced by "xxxxx", for errors and logs. Text
// that is not a URL is returned with any password=… setting blanked.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return Redact(userPassword.ReplaceAllString(raw, "${1}xxxxx@"))
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	q := u.Query()
	for k := range q {
		if strings.EqualFold(k, "password") {
			q.Set(k, "xxxxx")
			u.RawQuery = q.Encode()
		}
	}
	return u.String()
}
