package store

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// PG is an open ledger in PostgreSQL (github.com/jackc/pgx/v5), shared by
// every controller that opens the same database. It is safe for
// concurrent use, by goroutines, processes and machines.
//
// Leases live in rows of the leases table: taking one locks its row
// (SELECT … FOR UPDATE) for the check and the write, expiry is judged by
// the database's clock (never a controller's), and FinishDeployment locks
// the lease row it checks (FOR SHARE), so a controller whose lease was
// taken over cannot record files, and cannot release or renew the new
// holder's lease.
type PG struct {
	pool  *pgxpool.Pool
	url   string // redacted
	empty bool   // read-only, and the database has no ledger yet
	// version is the schema's version once opened (see Store.version).
	schema int
	// outage is how long an operation is retried while the database
	// cannot be reached (DefaultOutage; see retryOutage).
	outage time.Duration
}

// pgNow is the database's clock in Unix nanoseconds, the unit of every
// time column (the SQLite ledger's too). Expiry is judged by it, so
// controllers whose clocks disagree agree on which lease expired.
const pgNow = `(floor(extract(epoch from clock_timestamp()) * 1000000)::bigint * 1000)`

// pgMigrateLock is the advisory lock key that serializes migrations of
// one database: controllers starting at once migrate one after the other.
const pgMigrateLock int64 = 0x74656e646572 // "tender"

// errPGEmpty is what a write to a read-only PG ledger with no schema gets.
var errPGEmpty = errors.New("the ledger is read-only (and empty: nothing was ever recorded in this database)")

// OpenPG opens the ledger in the PostgreSQL database rawURL names
// (postgres://user:password@host:port/db?sslmode=…, or any URL or
// parameter pgx accepts) and migrates its schema to the current version.
// Errors name the URL with its password redacted.
func OpenPG(ctx context.Context, rawURL string) (*PG, error) {
	p, err := openPG(ctx, rawURL, false)
	if err != nil {
		return nil, err
	}
	if err := p.migrate(ctx); err != nil {
		p.pool.Close()
		return nil, p.wrap(err, rawURL)
	}
	return p, nil
}

// OpenPGReadOnly opens the ledger at rawURL for reading only: every
// transaction is read-only, nothing is created or migrated. A database
// with no ledger yet reads as an empty one.
func OpenPGReadOnly(ctx context.Context, rawURL string) (*PG, error) {
	p, err := openPG(ctx, rawURL, true)
	if err != nil {
		return nil, err
	}
	v, err := p.version(ctx, p.pool)
	switch {
	case err != nil:
	case v == 0:
		p.empty = true
	case v > len(pgMigrations):
		err = fmt.Errorf("schema version %d: this tender reads versions 1 to %d", v, len(pgMigrations))
	}
	p.schema = v
	if err != nil {
		p.pool.Close()
		return nil, p.wrap(err, rawURL)
	}
	return p, nil
}

func openPG(ctx context.Context, rawURL string, readOnly bool) (*PG, error) {
	p := &PG{url: RedactURL(rawURL), outage: DefaultOutage}
	if _, err := url.Parse(rawURL); err != nil {
		return nil, fmt.Errorf("ledger %s: not a valid URL", p.url)
	}
	cfg, err := pgxpool.ParseConfig(rawURL)
	if err != nil {
		return nil, p.wrap(err, rawURL)
	}
	if cfg.ConnConfig.RuntimeParams == nil {
		cfg.ConnConfig.RuntimeParams = map[string]string{}
	}
	cfg.ConnConfig.RuntimeParams["application_name"] = "tender"
	if readOnly {
		cfg.ConnConfig.RuntimeParams["default_transaction_read_only"] = "on"
	}
	if p.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return nil, p.wrap(err, rawURL)
	}
	if err := p.pool.Ping(ctx); err != nil {
		p.pool.Close()
		return nil, p.wrap(err, rawURL)
	}
	return p, nil
}

// wrap names the ledger in err and takes the URL's password out of its
// text, whatever layer put it there.
func (p *PG) wrap(err error, rawURL string) error {
	msg := err.Error()
	if u, perr := url.Parse(rawURL); perr == nil {
		if pw, ok := u.User.Password(); ok && pw != "" {
			msg = strings.ReplaceAll(msg, pw, "xxxxx")
		}
		for k, vs := range u.Query() {
			if strings.EqualFold(k, "password") {
				for _, v := range vs {
					if v != "" {
						msg = strings.ReplaceAll(msg, v, "xxxxx")
					}
				}
			}
		}
	}
	return &redactedError{msg: "ledger " + p.url + ": " + msg, err: err}
}

// redactedError carries an error whose text had a secret taken out; it
// unwraps to the original for errors.Is and errors.As.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// Close closes the connection pool.
func (p *PG) Close() error { p.pool.Close(); return nil }

// URL is the database's URL, its password redacted.
func (p *PG) URL() string { return p.url }

// querier is what both a pool and a transaction offer.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// version returns the schema version, 0 when the database has no ledger.
func (p *PG) version(ctx context.Context, q querier) (int, error) {
	var exists bool
	if err := q.QueryRow(ctx, `SELECT to_regclass('tender_schema') IS NOT NULL`).Scan(&exists); err != nil || !exists {
		return 0, err
	}
	var v int
	err := q.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM tender_schema`).Scan(&v)
	return v, err
}

// migrate brings the schema to len(pgMigrations) in one transaction,
// holding an advisory lock so that controllers opening the database at
// once migrate one after the other. A newer schema is refused.
func (p *PG) migrate(ctx context.Context) error {
	return p.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, pgMigrateLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS tender_schema (version INTEGER NOT NULL)`); err != nil {
			return err
		}
		v, err := p.version(ctx, tx)
		if err != nil {
			return err
		}
		if v > len(pgMigrations) {
			return fmt.Errorf("schema version %d is newer than this tender knows (%d)", v, len(pgMigrations))
		}
		if v == len(pgMigrations) {
			p.schema = v
			return nil
		}
		for i := v; i < len(pgMigrations); i++ {
			if _, err := tx.Exec(ctx, pgMigrations[i]); err != nil {
				return fmt.Errorf("schema migration %d: %w", i+1, err)
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM tender_schema`); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO tender_schema (version) VALUES ($1)`, len(pgMigrations))
		p.schema = len(pgMigrations)
		return err
	})
}

// tx runs fn in one transaction and commits it when fn returns nil. A
// transaction the database aborted to break a deadlock or a serialization
// conflict, or a lease row deleted under it (errPGRetry), is run again, a
// few times; one cut by an outage, until the database is back
// (retryOutage).
func (p *PG) tx(ctx context.Context, fn func(pgx.Tx) error) error {
	return p.retryOutage(ctx, func() error { return p.tx1(ctx, fn) })
}

func (p *PG) tx1(ctx context.Context, fn func(pgx.Tx) error) error {
	var err error
	for range 5 {
		err = pgx.BeginFunc(ctx, p.pool, fn)
		var pgErr *pgconn.PgError
		if !errors.Is(err, errPGRetry) && !(errors.As(err, &pgErr) && (pgErr.Code == "40001" || pgErr.Code == "40P01")) {
			return err
		}
	}
	return err
}

// errPGRetry asks tx to run its function again.
var errPGRetry = errors.New("the row changed under the transaction; try again")

// writable fails the writes of a read-only ledger that has no schema.
func (p *PG) writable() error {
	if p.empty {
		return errPGEmpty
	}
	return nil
}
