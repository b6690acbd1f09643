package store

import (
	"context"
	"errors"
	"io"
	"net"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// DefaultOutage is how long a PG ledger keeps retrying an operation that
// failed because the database could not be reached or went away (a
// restart, a failover): controllers ride out a short outage instead of
// failing every host they were deploying.
const DefaultOutage = 30 * time.Second

// transient reports whether err is the database being unreachable or
// going away: the connection refused or cut, the server shutting down or
// starting up. Such an operation did not happen, or, cut during its
// commit, may have; every ledger operation is safe to run again (see
// retryOutage).
func transient(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "57P01", "57P02", "57P03": // admin_shutdown, crash_shutdown, cannot_connect_now
			return true
		}
		return len(pgErr.Code) == 5 && pgErr.Code[:2] == "08" // connection exception
	}
	var connErr *pgconn.ConnectError
	var netErr net.Error
	return pgconn.SafeToRetry(err) || errors.As(err, &connErr) || errors.As(err, &netErr) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// retryOutage runs op, and again while it fails with a transient error,
// for at most p.outage, backing off from 100 ms to 2 s; ctx ending stops
// it. Every operation of the ledger can run twice: a lease its owner
// holds is granted again, a deployment's end and files are written the
// same way twice, a release of a released lease does nothing; a
// deployment or rollout started twice leaves the first marked
// interrupted.
func (p *PG) retryOutage(ctx context.Context, op func() error) error {
	deadline := time.Now().Add(p.outage)
	wait := 100 * time.Millisecond
	for {
		err := op()
		if !transient(err) || time.Now().Add(wait).After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}
