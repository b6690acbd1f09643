package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tender-sh/tender/agents"
)

// Deployed returns the files recorded for (host, agent).
func (p *PG) Deployed(ctx context.Context, host, agent string) ([]agents.FileRecord, bool, error) {
	if p.empty {
		return nil, false, nil
	}
	var out []agents.FileRecord
	err := p.retryOutage(ctx, func() (err error) {
		out, err = p.deployed(ctx, host, agent)
		return err
	})
	return out, len(out) > 0, err
}

func (p *PG) deployed(ctx context.Context, host, agent string) ([]agents.FileRecord, error) {
	rows, err := p.pool.Query(ctx, `SELECT path, md5, size, deployed_at, bundle_version
		FROM files WHERE host = $1 AND agent = $2 ORDER BY path`, host, agent)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []agents.FileRecord
	for rows.Next() {
		var f agents.FileRecord
		var at *int64
		if err := rows.Scan(&f.Path, &f.MD5, &f.Size, &at, &f.Version); err != nil {
			return nil, err
		}
		f.DeployedAt = fromPGStamp(at)
		out = append(out, f)
	}
	return out, rows.Err()
}

// DeployedAll returns every host's ledger rows for agent in one query; see
// agents.BulkStore.
func (p *PG) DeployedAll(ctx context.Context, agent string) (map[string][]agents.FileRecord, error) {
	out := map[string][]agents.FileRecord{}
	if p.empty {
		return out, nil
	}
	err := p.retryOutage(ctx, func() error {
		clear(out)
		rows, err := p.pool.Query(ctx, `SELECT host, path, md5, size, deployed_at, bundle_version
			FROM files WHERE agent = $1 ORDER BY host, path`, agent)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var host string
			var f agents.FileRecord
			var at *int64
			if err := rows.Scan(&host, &f.Path, &f.MD5, &f.Size, &at, &f.Version); err != nil {
				return err
			}
			f.DeployedAt = fromPGStamp(at)
			out[host] = append(out[host], f)
		}
		return rows.Err()
	})
	return out, err
}

// Lease takes the (host, agent) lease for owner; see agents.Store. The
// lease's row is locked from the check to the write, and whether it
// expired is the database clock's call.
func (p *PG) Lease(ctx context.Context, host, agent, owner string, ttl time.Duration, takeover func(holder string) bool) (bool, string, error) {
	if err := p.writable(); err != nil {
		return false, "", err
	}
	var got bool
	var holder string
	err := p.tx(ctx, func(tx pgx.Tx) error {
		got, holder = false, ""
		// A free lease is a row nobody holds, so that there is always a
		// row to lock; two controllers inserting it at once get one row.
		if _, err := tx.Exec(ctx, `INSERT INTO leases (host, agent, owner, expires) VALUES ($1, $2, '', 0)
			ON CONFLICT (host, agent) DO NOTHING`, host, agent); err != nil {
			return err
		}
		var expired bool
		err := tx.QueryRow(ctx, `SELECT owner, expires <= `+pgNow+` FROM leases
			WHERE host = $1 AND agent = $2 FOR UPDATE`, host, agent).Scan(&holder, &expired)
		switch {
		case errors.Is(err, pgx.ErrNoRows): // released or forgotten since the insert
			return errPGRetry
		case err != nil:
			return err
		case holder == "", holder == owner, expired, takeover != nil && takeover(holder):
		default:
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE leases SET owner = $3, expires = `+pgNow+` + $4::bigint
			WHERE host = $1 AND agent = $2`, host, agent, owner, int64(ttl)); err != nil {
			return err
		}
		got, holder = true, owner
		return nil
	})
	return got, holder, err
}

// Release gives up owner's lease on (host, agent); a lease someone else
// holds now is left alone.
func (p *PG) Release(ctx context.Context, host, agent, owner string) error {
	if err := p.writable(); err != nil {
		return err
	}
	return p.retryOutage(ctx, func() error {
		_, err := p.pool.Exec(ctx, `DELETE FROM leases WHERE host = $1 AND agent = $2 AND owner = $3`, host, agent, owner)
		return err
	})
}

// StartRollout records a rollout; see agents.Store.
func (p *PG) StartRollout(ctx context.Context, r agents.RolloutRecord, takeover func(owner string) bool) (int64, error) {
	if err := p.writable(); err != nil {
		return 0, err
	}
	var id int64
	err := p.tx(ctx, func(tx pgx.Tx) error {
		if takeover != nil {
			gone, err := goneOwners(ctx, tx, `SELECT DISTINCT owner FROM rollouts WHERE agent = $1 AND outcome = $2`,
				takeover, r.Agent, agents.OutcomeRunning)
			if err != nil {
				return err
			}
			for _, owner := range gone {
				if _, err := tx.Exec(ctx, `UPDATE deployments SET outcome = $1, finished = `+pgNow+`
					WHERE finished IS NULL AND rollout IN (SELECT id FROM rollouts WHERE agent = $2 AND owner = $3 AND outcome = $4)`,
					agents.OutcomeInterrupted, r.Agent, owner, agents.OutcomeRunning); err != nil {
					return err
				}
				if _, err := tx.Exec(ctx, `UPDATE rollouts SET outcome = $1, finished = `+pgNow+`
					WHERE agent = $2 AND owner = $3 AND outcome = $4`, agents.OutcomeInterrupted, r.Agent, owner, agents.OutcomeRunning); err != nil {
					return err
				}
			}
			// Deployments of gone owners, reconnects (no rollout) included.
			gone, err = goneOwners(ctx, tx, `SELECT DISTINCT owner FROM deployments
				WHERE agent = $1 AND finished IS NULL AND owner != ''`, takeover, r.Agent)
			if err != nil {
				return err
			}
			for _, owner := range gone {
				if _, err := tx.Exec(ctx, `UPDATE deployments SET outcome = $1, finished = `+pgNow+`
					WHERE agent = $2 AND owner = $3 AND finished IS NULL`, agents.OutcomeInterrupted, r.Agent, owner); err != nil {
					return err
				}
			}
		}
		if err := pgAbandonExpired(ctx, tx); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `INSERT INTO rollouts (agent, version, owner, hosts, summary, started, outcome, expires)
			VALUES ($1, $2, $3, $4, $5, `+pgNow+`, $6, CASE WHEN $7::bigint > 0 THEN `+pgNow+` + $7::bigint ELSE 0 END) RETURNING id`,
			r.Agent, r.Version, r.Owner, r.Hosts, r.Summary, agents.OutcomeRunning, r.TTL.Nanoseconds()).Scan(&id)
	})
	return id, err
}

// goneOwners runs query (which selects owners) and returns those takeover
// says are gone.
func goneOwners(ctx context.Context, tx pgx.Tx, query string, takeover func(string) bool, args ...any) ([]string, error) {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	owners, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	var gone []string
	for _, o := range owners {
		if takeover(o) {
			gone = append(gone, o)
		}
	}
	return gone, nil
}

// FinishRollout records how rollout id ended.
func (p *PG) FinishRollout(ctx context.Context, id int64, outcome string) error {
	if err := p.writable(); err != nil {
		return err
	}
	return p.retryOutage(ctx, func() error {
		_, err := p.pool.Exec(ctx, `UPDATE rollouts SET outcome = $1, finished = `+pgNow+` WHERE id = $2`, outcome, id)
		return err
	})
}

// RenewRollout extends a running rollout's lease; see agents.Store.
func (p *PG) RenewRollout(ctx context.Context, id int64, ttl time.Duration) error {
	if err := p.writable(); err != nil {
		return err
	}
	return p.retryOutage(ctx, func() error {
		_, err := p.pool.Exec(ctx, `UPDATE rollouts SET expires = `+pgNow+` + $1::bigint WHERE id = $2 AND outcome = $3`,
			ttl.Nanoseconds(), id, agents.OutcomeRunning)
		return err
	})
}

// pgExpiredRollout is true of a rollouts row still marked running whose
// lease expired, by the database's clock.
const pgExpiredRollout = `outcome = '` + agents.OutcomeRunning + `' AND expires > 0 AND expires < ` + pgNow

// pgAbandonExpired marks the running rollouts whose lease expired
// abandoned (finished when it expired), and their deployments that never
// finished.
func pgAbandonExpired(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, `UPDATE deployments SET outcome = $1, finished = `+pgNow+` WHERE finished IS NULL AND rollout IN
		(SELECT id FROM rollouts WHERE `+pgExpiredRollout+`)`, agents.OutcomeAbandoned); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `UPDATE rollouts SET outcome = $1, finished = expires WHERE `+pgExpiredRollout, agents.OutcomeAbandoned)
	return err
}

// StartDeployment records that a host's deploy begins; see agents.Store.
func (p *PG) StartDeployment(ctx context.Context, d agents.DeploymentRecord) (int64, error) {
	if err := p.writable(); err != nil {
		return 0, err
	}
	var id int64
	err := p.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE deployments SET outcome = $1, finished = `+pgNow+`
			WHERE host = $2 AND agent = $3 AND finished IS NULL`, agents.OutcomeInterrupted, d.Host, d.Agent); err != nil {
			return err
		}
		var rollout *int64
		if d.Rollout != 0 {
			rollout = &d.Rollout
		}
		return tx.QueryRow(ctx, `INSERT INTO deployments (rollout, host, agent, reason, started, outcome, owner, wave)
			VALUES ($1, $2, $3, $4, `+pgNow+`, $5, $6, $7) RETURNING id`,
			rollout, d.Host, d.Agent, Redact(d.Reason), agents.OutcomeRunning, d.Owner, d.Wave).Scan(&id)
	})
	return id, err
}

// FinishDeployment records a deployment's end and, for a success, replaces
// the host's ledger rows for the agent, all in one transaction, and only
// while the deployment's owner holds the lease: the lease row stays
// locked (FOR SHARE) until the commit, so no takeover slips in between.
func (p *PG) FinishDeployment(ctx context.Context, id int64, outcome, errText string, files []agents.FileRecord) error {
	if err := p.writable(); err != nil {
		return err
	}
	return p.tx(ctx, func(tx pgx.Tx) error {
		var host, agent, owner string
		if err := tx.QueryRow(ctx, `SELECT host, agent, owner FROM deployments WHERE id = $1 FOR UPDATE`, id).
			Scan(&host, &agent, &owner); err != nil {
			return fmt.Errorf("deployment %d: %w", id, err)
		}
		if files != nil {
			var holder string
			err := tx.QueryRow(ctx, `SELECT owner FROM leases WHERE host = $1 AND agent = $2 FOR SHARE`, host, agent).Scan(&holder)
			if err != nil && !errors.Is(err, pgx.ErrNoRows) {
				return err
			}
			if holder != owner {
				return fmt.Errorf("%w (held by %q)", agents.ErrLeaseLost, holder)
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE deployments SET outcome = $1, error = $2, finished = `+pgNow+` WHERE id = $3`,
			outcome, Redact(errText), id); err != nil {
			return err
		}
		if files == nil {
			return nil
		}
		if _, err := tx.Exec(ctx, `INSERT INTO hosts (name, first_seen, last_seen) VALUES ($1, `+pgNow+`, `+pgNow+`)
			ON CONFLICT (name) DO UPDATE SET last_seen = excluded.last_seen`, host); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM files WHERE host = $1 AND agent = $2`, host, agent); err != nil {
			return err
		}
		for _, f := range files {
			var at *int64
			if !f.DeployedAt.IsZero() {
				n := f.DeployedAt.UnixNano()
				at = &n
			}
			if _, err := tx.Exec(ctx, `INSERT INTO files (host, agent, path, md5, size, deployed_at, bundle_version)
				VALUES ($1, $2, $3, $4, $5, COALESCE($6::bigint, `+pgNow+`), $7)`,
				host, agent, f.Path, f.MD5, f.Size, at, f.Version); err != nil {
				return err
			}
		}
		return nil
	})
}

// Forget drops everything recorded about host: its files, leases and
// deployments.
func (p *PG) Forget(ctx context.Context, host string) error {
	if err := p.writable(); err != nil {
		return err
	}
	return p.tx(ctx, func(tx pgx.Tx) error {
		for _, q := range []string{
			`DELETE FROM files WHERE host = $1`,
			`DELETE FROM leases WHERE host = $1`,
			`DELETE FROM deployments WHERE host = $1`,
			`DELETE FROM hosts WHERE name = $1`,
		} {
			if _, err := tx.Exec(ctx, q, host); err != nil {
				return err
			}
		}
		return nil
	})
}

// History returns the last limit rollouts and deployments, newest first,
// optionally only those of one host ("" for all). A running rollout whose
// lease expired, and its unfinished deployments, are shown abandoned.
func (p *PG) History(ctx context.Context, host string, limit int) ([]Rollout, []Deployment, error) {
	if p.empty {
		return nil, nil, nil
	}
	if limit <= 0 {
		limit = 50
	}
	rows, err := p.pool.Query(ctx, `SELECT id, agent, version, owner, hosts, summary, started,
		CASE WHEN `+pgExpiredRollout+` THEN expires ELSE finished END,
		CASE WHEN `+pgExpiredRollout+` THEN $2 ELSE outcome END
		FROM rollouts ORDER BY id DESC LIMIT $1`, limit, agents.OutcomeAbandoned)
	if err != nil {
		return nil, nil, err
	}
	rs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Rollout, error) {
		var r Rollout
		var st, fin *int64
		err := row.Scan(&r.ID, &r.Agent, &r.Version, &r.Owner, &r.Hosts, &r.Summary, &st, &fin, &r.Outcome)
		r.Started, r.Finished = fromPGStamp(st), fromPGStamp(fin)
		return r, err
	})
	if err != nil {
		return nil, nil, err
	}
	rows, err = p.pool.Query(ctx, `SELECT d.id, COALESCE(d.rollout, 0), d.host, d.agent, d.reason, d.started, d.finished,
		CASE WHEN d.finished IS NULL AND r.outcome = '`+agents.OutcomeRunning+`' AND r.expires > 0 AND r.expires < `+pgNow+`
			THEN $3 ELSE d.outcome END,
		d.error, `+waveColumn(p.schema)+`
		FROM deployments d LEFT JOIN rollouts r ON r.id = d.rollout
		WHERE $1 = '' OR d.host = $1 ORDER BY d.id DESC LIMIT $2`, host, limit, agents.OutcomeAbandoned)
	if err != nil {
		return nil, nil, err
	}
	ds, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Deployment, error) {
		var d Deployment
		var st, fin *int64
		err := row.Scan(&d.ID, &d.Rollout, &d.Host, &d.Agent, &d.Reason, &st, &fin, &d.Outcome, &d.Error, &d.Wave)
		d.Started, d.Finished = fromPGStamp(st), fromPGStamp(fin)
		return d, err
	})
	return rs, ds, err
}

func fromPGStamp(n *int64) time.Time {
	if n == nil {
		return time.Time{}
	}
	return time.Unix(0, *n)
}
