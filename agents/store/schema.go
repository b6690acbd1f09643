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
	return nil
}

// migrate brings the schema to len(migrations), one version per
// transaction. A database newer than this tender is refused.
func (s *Store) migrate(ctx context.Context) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
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
		return nil
	})
}
