package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/tender-sh/tender/agents"
)

// Deployed returns the files recorded for (host, agent).
func (s *Store) Deployed(ctx context.Context, host, agent string) ([]agents.FileRecord, bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT path, md5, size, deployed_at, bundle_version
		FROM files WHERE host = ? AND agent = ? ORDER BY path`, host, agent)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	var out []agents.FileRecord
	for rows.Next() {
		var f agents.FileRecord
		var at sql.NullInt64
		if err := rows.Scan(&f.Path, &f.MD5, &f.Size, &at, &f.Version); err != nil {
			return nil, false, err
		}
		f.DeployedAt = fromStamp(at)
		out = append(out, f)
	}
	return out, len(out) > 0, rows.Err()
}

// DeployedAll returns every host's ledger rows for agent in one query; see
// agents.BulkStore.
func (s *Store) DeployedAll(ctx context.Context, agent string) (map[string][]agents.FileRecord, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT host, path, md5, size, deployed_at, bundle_version
		FROM files WHERE agent = ? ORDER BY host, path`, agent)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]agents.FileRecord{}
	for rows.Next() {
		var host string
		var f agents.FileRecord
		var at sql.NullInt64
		if err := rows.Scan(&host, &f.Path, &f.MD5, &f.Size, &at, &f.Version); err != nil {
			return nil, err
		}
		f.DeployedAt = fromStamp(at)
		out[host] = append(out[host], f)
	}
	return out, rows.Err()
}

// Lease takes the (host, agent) lease for owner; see agents.Store.
func (s *Store) Lease(ctx context.Context, host, agent, owner string, ttl time.Duration, takeover func(holder string) bool) (bool, string, error) {
	var got bool
	var holder string
	err := s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		got, holder = false, ""
		var expires int64
		err := tx.QueryRowContext(ctx, `SELECT owner, expires FROM leases WHERE host = ? AND agent = ?`,
			host, agent).Scan(&holder, &expires)
		now := s.stamp()
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		case holder == owner, expires <= now, takeover != nil && takeover(holder):
		default:
			return nil
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO leases (host, agent, owner, expires)
			VALUES (?, ?, ?, ?)`, host, agent, owner, now+int64(ttl)); err != nil {
			return err
		}
		got, holder = true, owner
		return nil
	})
	return got, holder, err
}

// Release gives up owner's lease on (host, agent).
func (s *Store) Release(ctx context.Context, host, agent, owner string) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM leases WHERE host = ? AND agent = ? AND owner = ?`, host, agent, owner)
		return err
	})
}

// StartRollout records a rollout; see agents.Store.
func (s *Store) StartRollout(ctx context.Context, r agents.RolloutRecord, takeover func(owner string) bool) (int64, error) {
	var id int64
	err := s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, owner FROM rollouts WHERE agent = ? AND outcome = ?`, r.Agent, agents.OutcomeRunning)
		if err != nil {
			return err
		}
		var gone []int64
		for rows.Next() {
			var rid int64
			var owner string
			if err := rows.Scan(&rid, &owner); err != nil {
				rows.Close()
				return err
			}
			if takeover != nil && takeover(owner) {
				gone = append(gone, rid)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		now := s.stamp()
		for _, rid := range gone {
			if _, err := tx.ExecContext(ctx, `UPDATE rollouts SET outcome = ?, finished = ? WHERE id = ?`,
				agents.OutcomeInterrupted, now, rid); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE deployments SET outcome = ?, finished = ?
				WHERE rollout = ? AND finished IS NULL`, agents.OutcomeInterrupted, now, rid); err != nil {
				return err
			}
		}
		if takeover != nil {
			if err := interruptGoneDeployments(ctx, tx, r.Agent, now, takeover); err != nil {
				return err
			}
		}
		if err := abandonExpired(ctx, tx, now); err != nil {
			return err
		}
		var expires int64
		if r.TTL > 0 {
			expires = now + r.TTL.Nanoseconds()
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO rollouts (agent, version, owner, hosts, summary, started, outcome, expires)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, r.Agent, r.Version, r.Owner, r.Hosts, r.Summary, now, agents.OutcomeRunning, expires)
		if err != nil {
			return err
		}
		id, err = res.LastInsertId()
		return err
	})
	return id, err
}

// interruptGoneDeployments marks interrupted the unfinished deployments
// of agent whose owner takeover says is gone, reconnects (which have no
// rollout) included.
func interruptGoneDeployments(ctx context.Context, tx *sql.Tx, agent string, now int64, takeover func(string) bool) error {
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT owner FROM deployments
		WHERE agent = ? AND finished IS NULL AND owner != ''`, agent)
	if err != nil {
		return err
	}
	var gone []string
	for rows.Next() {
		var owner string
		if err := rows.Scan(&owner); err != nil {
			rows.Close()
			return err
		}
		if takeover(owner) {
			gone = append(gone, owner)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, owner := range gone {
		if _, err := tx.ExecContext(ctx, `UPDATE deployments SET outcome = ?, finished = ?
			WHERE agent = ? AND owner = ? AND finished IS NULL`, agents.OutcomeInterrupted, now, agent, owner); err != nil {
			return err
		}
	}
	return nil
}

// FinishRollout records how rollout id ended.
func (s *Store) FinishRollout(ctx context.Context, id int64, outcome string) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE rollouts SET outcome = ?, finished = ? WHERE id = ?`, outcome, s.stamp(), id)
		return err
	})
}

// RenewRollout extends a running rollout's lease; see agents.Store.
func (s *Store) RenewRollout(ctx context.Context, id int64, ttl time.Duration) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE rollouts SET expires = ? WHERE id = ? AND outcome = ?`,
			s.stamp()+ttl.Nanoseconds(), id, agents.OutcomeRunning)
		return err
	})
}

// abandonExpired marks the running rollouts whose lease expired before
// now abandoned (finished when it expired), and their deployments that
// never finished.
func abandonExpired(ctx context.Context, tx *sql.Tx, now int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE deployments SET outcome = ?, finished = ? WHERE finished IS NULL AND rollout IN
		(SELECT id FROM rollouts WHERE outcome = ? AND expires > 0 AND expires < ?)`,
		agents.OutcomeAbandoned, now, agents.OutcomeRunning, now); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `UPDATE rollouts SET outcome = ?, finished = expires WHERE outcome = ? AND expires > 0 AND expires < ?`,
		agents.OutcomeAbandoned, agents.OutcomeRunning, now)
	return err
}

// StartDeployment records that a host's deploy begins; see agents.Store.
func (s *Store) StartDeployment(ctx context.Context, d agents.DeploymentRecord) (int64, error) {
	var id int64
	err := s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		now := s.stamp()
		if _, err := tx.ExecContext(ctx, `UPDATE deployments SET outcome = ?, finished = ?
			WHERE host = ? AND agent = ? AND finished IS NULL`, agents.OutcomeInterrupted, now, d.Host, d.Agent); err != nil {
			return err
		}
		var rollout any
		if d.Rollout != 0 {
			rollout = d.Rollout
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO deployments (rollout, host, agent, reason, started, outcome, owner, wave)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, rollout, d.Host, d.Agent, Redact(d.Reason), now, agents.OutcomeRunning, d.Owner, d.Wave)
		if err != nil {
			return err
		}
		id, err = res.LastInsertId()
		return err
	})
	return id, err
}

// FinishDeployment records a deployment's end and, for a success, replaces
// the host's ledger rows for the agent, all in one transaction.
func (s *Store) FinishDeployment(ctx context.Context, id int64, outcome, errText string, files []agents.FileRecord) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var host, agent, owner string
		if err := tx.QueryRowContext(ctx, `SELECT host, agent, owner FROM deployments WHERE id = ?`, id).Scan(&host, &agent, &owner); err != nil {
			return err
		}
		if files != nil {
			var holder string
			err := tx.QueryRowContext(ctx, `SELECT owner FROM leases WHERE host = ? AND agent = ?`, host, agent).Scan(&holder)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			if holder != owner {
				return fmt.Errorf("%w (held by %q)", agents.ErrLeaseLost, holder)
			}
		}
		now := s.stamp()
		if _, err := tx.ExecContext(ctx, `UPDATE deployments SET outcome = ?, error = ?, finished = ? WHERE id = ?`,
			outcome, Redact(errText), now, id); err != nil {
			return err
		}
		if files == nil {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO hosts (name, first_seen, last_seen) VALUES (?, ?, ?)
			ON CONFLICT(name) DO UPDATE SET last_seen = excluded.last_seen`, host, now, now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM files WHERE host = ? AND agent = ?`, host, agent); err != nil {
			return err
		}
		for _, f := range files {
			at := f.DeployedAt
			if at.IsZero() {
				at = time.Unix(0, now)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO files (host, agent, path, md5, size, deployed_at, bundle_version)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, host, agent, f.Path, f.MD5, f.Size, at.UnixNano(), f.Version); err != nil {
				return err
			}
		}
		return nil
	})
}

// Forget drops everything recorded about host: its files, leases and
// deployments.
func (s *Store) Forget(ctx context.Context, host string) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for _, q := range []string{
			`DELETE FROM files WHERE host = ?`,
			`DELETE FROM leases WHERE host = ?`,
			`DELETE FROM deployments WHERE host = ?`,
			`DELETE FROM hosts WHERE name = ?`,
		} {
			if _, err := tx.ExecContext(ctx, q, host); err != nil {
				return err
			}
		}
		return nil
	})
}
