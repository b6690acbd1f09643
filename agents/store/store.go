// Package store is the agents ledger: which files of which agent were
// deployed on which host with which MD5, the leases that keep two tender
// processes from deploying the same (host, agent) at once, and the record
// of deployments and rollouts. It implements agents.Store twice, and is
// the only package that imports the database drivers:
//
//   - Store, in SQLite (github.com/mattn/go-sqlite3), the embedded default:
//     one file on the controller, for one controller (or several processes
//     on one machine). The database runs in WAL mode with a busy timeout,
//     and every transaction takes the write lock when it begins
//     (_txlock=immediate), so a read-then-write such as taking a lease is
//     atomic across processes. The schema version is PRAGMA user_version.
//   - PG, in PostgreSQL (github.com/jackc/pgx/v5), for several controllers
//     sharing one fleet: --state postgres://user@host/db. Same schema and
//     migrations (the version in the table tender_schema, migrated in one
//     transaction under an advisory lock); leases are rows locked from
//     check to write, expire by the database's clock, and fence a
//     controller whose lease was taken over: it can record no files, and
//     cannot renew or release the new holder's lease.
//
// OpenState opens either, by the --state value; storetest is the
// conformance suite both pass. The schema is migrated when a ledger is
// opened for writing, never when opened read-only.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"time"

	// the SQLite driver, registered as "sqlite3"

	"github.com/tender-sh/tender/agents"
)

// Store is an open ledger. It is safe for concurrent use, and several
// processes may open the same file.
type Store struct {
	db   *sql.DB
	path string
	now  func() time.Time
	// version is the schema's version once opened: a read-only ledger
	// of an older one lacks the newer columns and tables.
	schema int
	// group is the group commit of this process's writes (group.go).
	group writeGroup
}

// busyTimeout is how long a transaction waits for another process's
// write lock before it fails.
var busyTimeout = 15 * time.Second

var _ agents.Store = (*Store)(nil)

// DefaultPath is where the ledger lives when --state names none:
// $XDG_STATE_HOME/tender/ledger.db, or ~/.local/state/tender/ledger.db.
func DefaultPath() (string, error) {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no $XDG_STATE_HOME and no home directory: %w", err)
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "tender", "ledger.db"), nil
}

// Open opens the ledger at path, creating it (mode 0600, its directory
// 0700) when missing, and migrates its schema to the current version.
func Open(ctx context.Context, path string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("ledger %s: %w", path, err)
	}
	// Create the file ourselves so its mode is 0600 whatever the umask;
	// SQLite gives the -wal and -shm files the database file's mode.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("ledger %s: %w", path, err)
	}
	// An existing ledger someone made readable to others is made private
	// again: it names every host and what runs there.
	st, err := f.Stat()
	if err == nil && st.Mode().Perm()&0o077 != 0 {
		err = f.Chmod(st.Mode().Perm() &^ 0o077)
	}
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("ledger %s: %w", path, err)
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() +
		fmt.Sprintf("?_journal_mode=WAL&_busy_timeout=%d&_txlock=immediate&_foreign_keys=1", busyTimeout.Milliseconds())
	// Opens of a new ledger at once (several controllers started
	// together) race to switch it to WAL and create its schema; SQLite
	// answers some of them "locked" without waiting, to avoid a deadlock.
	// Such an open is tried again, for as long as a write would wait.
	deadline := time.Now().Add(busyTimeout)
	for {
		s, err := openOnce(ctx, path, dsn)
		if err == nil {
			return s, nil
		}
		if !locked(err) || time.Now().After(deadline) {
			return nil, fmt.Errorf("ledger %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("ledger %s: %w", path, ctx.Err())
		case <-time.After(time.Duration(10+rand.IntN(40)) * time.Millisecond):
		}
	}
}

// openOnce opens and migrates the ledger once.
func openOnce(ctx context.Context, path, dsn string) (*Store, error) {
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, err
	}
	s := &Store{db: db, path: path, now: time.Now}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// OpenReadOnly opens the ledger at path for reading only: nothing is
// created, migrated or written, and every write fails. A missing ledger
// opens as an empty one (every host never deployed), still writing
// nothing to disk. A ledger in a directory this process may not write
// to is readable too, unless its write-ahead log holds changes.
func OpenReadOnly(ctx context.Context, path string) (*Store, error) {
	switch _, err := os.Stat(path); {
	case errors.Is(err, fs.ErrNotExist):
		s, err := openReadOnly(ctx, path, "file::memory:")
		if err != nil {
			return nil, fmt.Errorf("ledger %s: %w", path, err)
		}
		return s, nil
	case err != nil:
		return nil, fmt.Errorf("ledger %s: %w", path, err)
	}
	uri := "file:" + (&url.URL{Path: path}).EscapedPath() + "?mode=ro&_busy_timeout=5000"
	s, err := openReadOnly(ctx, path, uri)
	if err == nil {
		return s, nil
	}
	// SQLite reads a database in WAL mode through an index beside it
	// (-shm), which it creates, with the log (-wal), when they are
	// missing: it cannot without write access to the directory. When no
	// log holds changes, the database file alone is the whole ledger,
	// and SQLite may read it as immutable, creating nothing.
	wal, werr := os.Stat(path + "-wal")
	if werr == nil && wal.Mode().IsRegular() && wal.Size() > 0 {
		return nil, fmt.Errorf("ledger %s: %w (its write-ahead log %s-wal holds changes, which SQLite reads only with write access to %s)",
			path, err, path, filepath.Dir(path))
	}
	if s, ierr := openReadOnly(ctx, path, uri+"&immutable=1"); ierr == nil {
		return s, nil
	}
	return nil, fmt.Errorf("ledger %s: %w", path, err)
}

// openReadOnly opens the database at dsn read-only (an in-memory one gets
// the current schema) and checks it is one this tender can read.
func openReadOnly(ctx context.Context, path, dsn string) (*Store, error) {
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, err
	}
	s := &Store{db: db, path: path, now: time.Now}
	if dsn == "file::memory:" {
		db.SetMaxOpenConns(1) // one connection, one in-memory database
		err = s.migrate(ctx)
	} else {
		err = s.checkVersion(ctx)
	}
	if err == nil {
		_, err = db.ExecContext(ctx, "PRAGMA query_only = 1")
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Path is the database file's path.
func (s *Store) Path() string { return s.path }

// IntegrityCheck runs PRAGMA integrity_check and returns an error carrying
// its findings unless the database is intact.
func (s *Store) IntegrityCheck(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return err
	}
	defer rows.Close()
	var found []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return err
		}
		found = append(found, line)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(found) == 1 && found[0] == "ok" {
		return nil
	}
	return fmt.Errorf("ledger %s fails its integrity check: %v", s.path, found)
}

func (s *Store) stamp() int64 { return s.now().UnixNano() }

func fromStamp(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.Unix(0, n.Int64)
}
