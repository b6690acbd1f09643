package store

import (
	"context"
	"slices"

	"github.com/tender-sh/tender/agents"
)

// schemaWaves is the schema version that records deployments' waves and
// holds the fact cache.
const schemaWaves = 5

// waveColumn is the deployments column that holds a deployment's wave,
// or 0 in a read-only ledger of a schema older than schemaWaves.
func waveColumn(version int) string {
	if version < schemaWaves {
		return "0"
	}
	return "d.wave"
}

// Wave is what a rollout's wave did so far: how many hosts it deployed,
// by outcome.
type Wave struct {
	Rollout int64
	// N is the wave's number, from 1 (the canary when the rollout had
	// one).
	N int
	// Hosts is how many hosts the wave deployed; Outcomes counts them by
	// outcome (ok, failed, running, interrupted, abandoned).
	Hosts    int
	Outcomes map[string]int
}

// Waves returns the waves of the given rollouts, in the order of the
// rollouts and then of their waves. A deployment still marked running
// in a rollout whose lease expired counts as abandoned, as History
// shows it. Waves of rollouts not given are not read.
func (s *Store) Waves(ctx context.Context, rollouts []int64) ([]Wave, error) {
	if len(rollouts) == 0 || s.schema < schemaWaves {
		return nil, nil
	}
	lo, hi := slices.Min(rollouts), slices.Max(rollouts)
	now := s.stamp()
	rows, err := s.db.QueryContext(ctx, `SELECT d.rollout, d.wave,
		CASE WHEN d.finished IS NULL AND r.outcome = '`+agents.OutcomeRunning+`' AND r.expires > 0 AND r.expires < ? THEN '`+agents.OutcomeAbandoned+`' ELSE d.outcome END AS o,
		COUNT(*)
		FROM deployments d JOIN rollouts r ON r.id = d.rollout
		WHERE d.rollout BETWEEN ? AND ? AND d.wave > 0
		GROUP BY d.rollout, d.wave, o`, now, lo, hi)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var counts []waveCount
	for rows.Next() {
		var c waveCount
		if err := rows.Scan(&c.rollout, &c.wave, &c.outcome, &c.n); err != nil {
			return nil, err
		}
		counts = append(counts, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return collectWaves(rollouts, counts), nil
}

// waveCount is one row of the waves query: how many of a rollout's
// wave's deployments have one outcome.
type waveCount struct {
	rollout int64
	wave    int
	outcome string
	n       int
}

// collectWaves groups counts into the waves of rollouts, in their order.
func collectWaves(rollouts []int64, counts []waveCount) []Wave {
	byRollout := map[int64]map[int]*Wave{}
	for _, c := range counts {
		if !slices.Contains(rollouts, c.rollout) {
			continue
		}
		ws := byRollout[c.rollout]
		if ws == nil {
			ws = map[int]*Wave{}
			byRollout[c.rollout] = ws
		}
		w := ws[c.wave]
		if w == nil {
			w = &Wave{Rollout: c.rollout, N: c.wave, Outcomes: map[string]int{}}
			ws[c.wave] = w
		}
		w.Hosts += c.n
		w.Outcomes[c.outcome] += c.n
	}
	var out []Wave
	for _, id := range rollouts {
		ws := byRollout[id]
		ns := make([]int, 0, len(ws))
		for n := range ws {
			ns = append(ns, n)
		}
		slices.Sort(ns)
		for _, n := range ns {
			out = append(out, *ws[n])
		}
		delete(byRollout, id) // a rollout given twice is listed once
	}
	return out
}
