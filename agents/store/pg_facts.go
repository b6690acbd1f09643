package store

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tender-sh/tender/agents"
)

// Waves returns the waves of the given rollouts, as Store.Waves.
func (p *PG) Waves(ctx context.Context, rollouts []int64) ([]Wave, error) {
	if len(rollouts) == 0 || p.empty || p.schema < schemaWaves {
		return nil, nil
	}
	rows, err := p.pool.Query(ctx, `SELECT d.rollout, d.wave,
		CASE WHEN d.finished IS NULL AND r.outcome = '`+agents.OutcomeRunning+`' AND r.expires > 0 AND r.expires < `+pgNow+`
			THEN '`+agents.OutcomeAbandoned+`' ELSE d.outcome END AS o,
		COUNT(*)
		FROM deployments d JOIN rollouts r ON r.id = d.rollout
		WHERE d.rollout BETWEEN $1 AND $2 AND d.wave > 0
		GROUP BY d.rollout, d.wave, o`, slices.Min(rollouts), slices.Max(rollouts))
	if err != nil {
		return nil, err
	}
	counts, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (waveCount, error) {
		var c waveCount
		err := row.Scan(&c.rollout, &c.wave, &c.outcome, &c.n)
		return c, err
	})
	if err != nil {
		return nil, err
	}
	return collectWaves(rollouts, counts), nil
}

// Facts returns the fact cache's entry under key, as Store.Facts.
func (p *PG) Facts(ctx context.Context, key string) ([]byte, time.Time, bool, error) {
	if p.empty || p.schema < schemaWaves {
		return nil, time.Time{}, false, nil
	}
	var data string
	var size, stored int64
	err := p.retryOutage(ctx, func() error {
		return p.pool.QueryRow(ctx, `SELECT CASE WHEN octet_length(data) <= $2 THEN data ELSE '' END, octet_length(data), stored
			FROM facts WHERE key = $1`, key, MaxFactsEntry).Scan(&data, &size, &stored)
	})
	return factsEntry(key, data, size, stored, err)
}

// SetFacts replaces the fact cache's entry under key, as Store.SetFacts.
func (p *PG) SetFacts(ctx context.Context, key string, data []byte) error {
	if err := p.writable(); err != nil {
		return err
	}
	if err := checkFactsEntry(key, data); err != nil {
		return err
	}
	return p.tx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO facts (key, data, stored) VALUES ($1, $2, `+pgNow+`)
			ON CONFLICT (key) DO UPDATE SET data = EXCLUDED.data, stored = EXCLUDED.stored`, key, string(data))
		return err
	})
}

// DeleteFacts forgets the fact cache's entry under key, as
// Store.DeleteFacts.
func (p *PG) DeleteFacts(ctx context.Context, key string) error {
	if err := p.writable(); err != nil {
		return err
	}
	return p.tx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM facts WHERE key = $1`, key)
		return err
	})
}

// isPGNoRows reports whether err is PostgreSQL's "no rows".
func isPGNoRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }
