package store

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations are the schema's versions: migrations[i] takes the database
// from user_version i to i+1. Append; never edit a released step.
var migrations = []string{
	`CREATE TABLE hosts (
		name       TEXT PRIMARY KEY,
		first_seen INTEGER NOT NULL,
		last_seen  INTEGER NOT NULL
	);
	CREATE TABLE files (
		host           TEXT NOT NULL REFERENCES hosts(name) ON DELETE CASCADE,
		agent          TEXT NOT NULL,
		path           TEXT NOT NULL,
		md5            TEXT NOT NULL,
		size           INTEGER NOT NULL,
		deployed_at    INTEGER NOT NULL,
		bundle_version TEXT NOT NULL,
		PRIMARY KEY (host, agent, path)
	);
	CREATE TABLE rollouts (
		id       INTEGER PRIMARY KEY AUTOINCREMENT,
		agent    TEXT NOT NULL,
		version  TEXT NOT NULL,
		owner    TEXT NOT NULL,
		hosts    INTEGER NOT NULL,
		summary  TEXT NOT NULL,
		started  INTEGER NOT NULL,
		finished INTEGER,
		outcome  TEXT NOT NULL
	);
	CREATE TABLE deployments (
		id       INTEGER PRIMARY KEY AUTOINCREMENT,
		rollout  INTEGER REFERENCES rollouts(id) ON DELETE SET NULL,
		host     TEXT NOT NULL,
		agent    TEXT NOT NULL,
		reason   TEXT NOT NULL,
		started  INTEGER NOT NULL,
		finished INTEGER,
		outcome  TEXT NOT NULL,
		error    TEXT NOT NULL DEFAULT ''
	);
	CREATE INDEX deployments_host ON deployments(host, agent);
	CREATE TABLE leases (
		host    TEXT NOT NULL,
		agent   TEXT NOT NULL,
		owner   TEXT NOT NULL,
		expires INTEGER NOT NULL,
		PRIMARY KEY (host, agent)
	);`,
	// 2: who ran a deployment, to check its lease and mark it interrupted
	// when that process is gone.
	`ALTER TABLE deployments ADD COLUMN owner TEXT NOT NULL DEFAULT '';`,
	// 3: when a running rollout's lease expires (0: never), after which
	// it is abandoned.
	`ALTER TABLE rollouts ADD COLUMN expires INTEGER NOT NULL DEFAULT 0;`,
	// 4: the run history: every tender play and tender run, and each
	// host's result of each task.
	`CREATE TABLE runs (
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		kind       TEXT NOT NULL,
		command    TEXT NOT NULL,
		login      TEXT NOT NULL,
		controller TEXT NOT NULL,
		playbooks  TEXT NOT NULL,
		started    INTEGER NOT NULL,
		finished   INTEGER,
		status     TEXT NOT NULL,
		recap      TEXT NOT NULL DEFAULT ''
	);
	CREATE TABLE run_results (
		run     INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
		seq     INTEGER NOT NULL,
		play    TEXT NOT NULL,
		task    TEXT NOT NULL,
		host    TEXT NOT NULL,
		status  TEXT NOT NULL,
		msg     TEXT NOT NULL,
		at      INTEGER NOT NULL,
		PRIMARY KEY (run, seq)
	);`,
	// 5: the wave of a rollout each deployment ran in (0: none, a
	// reconnect), and the fact cache (fact_caching = ledger): one entry
	// per key, its facts as JSON and when they were stored.
	`ALTER TABLE deployments ADD COLUMN wave INTEGER NOT NULL DEFAULT 0;
	CREATE TABLE facts (
		key    TEXT PRIMARY KEY,
		data   TEXT NOT NULL,
		stored INTEGER NOT NULL
	);`,
}

// checkVersion fails unless the schema is one this tender can read: from
// version 1 to its own (a read-only ledger is never migrated).
func (s *Store) checkVersion(ctx context.Context) error {
	var v int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v < 1 || v > len(migrations) {
		return fmt.Errorf("schema version %d: this tender reads versions 1 to %d", v, len(migrations))
	}
	s.schema = v
	return nil
}

// migrate brings the schema to len(migrations), one version per
// transaction. A database newer than this tender is refused.
func (s *Store) migrate(ctx context.Context) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var v int
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
			return err
		}
		if v > len(migrations) {
			return fmt.Errorf("schema version %d is newer than this tender knows (%d)", v, len(migrations))
		}
		for ; v < len(migrations); v++ {
			if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
				return fmt.Errorf("schema migration %d: %w", v+1, err)
			}
			if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1)); err != nil {
				return err
			}
		}
		s.schema = v
		return nil
	})
}

// pgMigrations are migrations for PostgreSQL, step for step: the same
// tables, columns and versions, in PostgreSQL's types (BIGINT for
// INTEGER, identity columns for AUTOINCREMENT). The version is kept in
// the table tender_schema. Append to both lists together.
var pgMigrations = []string{
	`CREATE TABLE hosts (
		name       TEXT PRIMARY KEY,
		first_seen BIGINT NOT NULL,
		last_seen  BIGINT NOT NULL
	);
	CREATE TABLE files (
		host           TEXT NOT NULL REFERENCES hosts(name) ON DELETE CASCADE,
		agent          TEXT NOT NULL,
		path           TEXT NOT NULL,
		md5            TEXT NOT NULL,
		size           BIGINT NOT NULL,
		deployed_at    BIGINT NOT NULL,
		bundle_version TEXT NOT NULL,
		PRIMARY KEY (host, agent, path)
	);
	CREATE TABLE rollouts (
		id       BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
		agent    TEXT NOT NULL,
		version  TEXT NOT NULL,
		owner    TEXT NOT NULL,
		hosts    BIGINT NOT NULL,
		summary  TEXT NOT NULL,
		started  BIGINT NOT NULL,
		finished BIGINT,
		outcome  TEXT NOT NULL
	);
	CREATE TABLE deployments (
		id       BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
		rollout  BIGINT REFERENCES rollouts(id) ON DELETE SET NULL,
		host     TEXT NOT NULL,
		agent    TEXT NOT NULL,
		reason   TEXT NOT NULL,
		started  BIGINT NOT NULL,
		finished BIGINT,
		outcome  TEXT NOT NULL,
		error    TEXT NOT NULL DEFAULT ''
	);
	CREATE INDEX deployments_host ON deployments(host, agent);
	CREATE TABLE leases (
		host    TEXT NOT NULL,
		agent   TEXT NOT NULL,
		owner   TEXT NOT NULL,
		expires BIGINT NOT NULL,
		PRIMARY KEY (host, agent)
	);`,
	// 2: who ran a deployment, to check its lease and mark it interrupted
	// when that process is gone.
	`ALTER TABLE deployments ADD COLUMN owner TEXT NOT NULL DEFAULT '';`,
	// 3: when a running rollout's lease expires.
	`ALTER TABLE rollouts ADD COLUMN expires BIGINT NOT NULL DEFAULT 0;`,
	// 4: the run history.
	`CREATE TABLE runs (
		id         BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
		kind       TEXT NOT NULL,
		command    TEXT NOT NULL,
		login      TEXT NOT NULL,
		controller TEXT NOT NULL,
		playbooks  TEXT NOT NULL,
		started    BIGINT NOT NULL,
		finished   BIGINT,
		status     TEXT NOT NULL,
		recap      TEXT NOT NULL DEFAULT ''
	);
	CREATE TABLE run_results (
		run     BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
		seq     BIGINT NOT NULL,
		play    TEXT NOT NULL,
		task    TEXT NOT NULL,
		host    TEXT NOT NULL,
		status  TEXT NOT NULL,
		msg     TEXT NOT NULL,
		at      BIGINT NOT NULL,
		PRIMARY KEY (run, seq)
	);`,
	// 5: deployments' waves and the fact cache.
	`ALTER TABLE deployments ADD COLUMN wave BIGINT NOT NULL DEFAULT 0;
	CREATE TABLE facts (
		key    TEXT PRIMARY KEY,
		data   TEXT NOT NULL,
		stored BIGINT NOT NULL
	);`,
}

// SchemaVersions returns the schema versions this tender knows, SQLite's
// and PostgreSQL's: the same number, since every migration has both.
func SchemaVersions() (sqlite, postgres int) { return len(migrations), len(pgMigrations) }
