package store

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

// StartRun records a run that begins, as Store.StartRun.
func (p *PG) StartRun(ctx context.Context, r Run) (int64, error) {
	if err := p.writable(); err != nil {
		return 0, err
	}
	var id int64
	err := p.tx(ctx, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, `INSERT INTO runs (kind, command, login, controller, playbooks, started, status)
			VALUES ($1, $2, $3, $4, $5, `+pgNow+`, 'running') RETURNING id`, r.Kind, r.Command, r.Login, r.Controller, r.Playbooks).Scan(&id)
	})
	return id, err
}

// AddRunResults appends results to run id, as Store.AddRunResults.
func (p *PG) AddRunResults(ctx context.Context, id int64, rs []RunResult) error {
	if err := p.writable(); err != nil || len(rs) == 0 {
		return err
	}
	return p.tx(ctx, func(tx pgx.Tx) error {
		var next int64
		if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(seq), 0) + 1 FROM run_results WHERE run = $1`, id).Scan(&next); err != nil {
			return err
		}
		_, err := tx.CopyFrom(ctx, pgx.Identifier{"run_results"}, []string{"run", "seq", "play", "task", "host", "status", "msg", "at"},
			pgx.CopyFromSlice(len(rs), func(i int) ([]any, error) {
				r := rs[i]
				return []any{id, next + int64(i), r.Play, r.Task, r.Host, r.Status, r.Msg, r.At.UnixNano()}, nil
			}))
		return err
	})
}

// FinishRun records how run id ended, as Store.FinishRun.
func (p *PG) FinishRun(ctx context.Context, id int64, status, recap string) error {
	if err := p.writable(); err != nil {
		return err
	}
	return p.tx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE runs SET finished = `+pgNow+`, status = $1, recap = $2 WHERE id = $3`, status, recap, id)
		return err
	})
}

// Runs returns the last limit runs, newest first, as Store.Runs.
func (p *PG) Runs(ctx context.Context, limit int) ([]Run, error) {
	if p.empty {
		return nil, nil
	}
	if limit <= 0 {
		limit = 50
	}
	rows, err := p.pool.Query(ctx, `SELECT `+runColumns+` FROM runs ORDER BY id DESC LIMIT $1`, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Run, error) { return scanPGRun(row.Scan) })
}

// RunResults returns run id and its results, as Store.RunResults.
func (p *PG) RunResults(ctx context.Context, id int64) (Run, []RunResult, error) {
	if p.empty {
		return Run{}, nil, ErrNoRun
	}
	r, err := scanPGRun(p.pool.QueryRow(ctx, `SELECT `+runColumns+` FROM runs WHERE id = $1`, id).Scan)
	if errors.Is(err, pgx.ErrNoRows) {
		return Run{}, nil, ErrNoRun
	}
	if err != nil {
		return Run{}, nil, err
	}
	rows, err := p.pool.Query(ctx, `SELECT play, task, host, status, msg, at FROM run_results WHERE run = $1 ORDER BY seq LIMIT $2`, id, MaxRunResults)
	if err != nil {
		return r, nil, err
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (RunResult, error) {
		var x RunResult
		var at int64
		err := row.Scan(&x.Play, &x.Task, &x.Host, &x.Status, &x.Msg, &at)
		x.At = time.Unix(0, at)
		return x, err
	})
	return r, out, err
}

// PruneRuns keeps the newest keep runs, as Store.PruneRuns.
func (p *PG) PruneRuns(ctx context.Context, keep int) (int, error) {
	if err := p.writable(); err != nil {
		return 0, err
	}
	var n int64
	err := p.tx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM runs WHERE id NOT IN (SELECT id FROM runs ORDER BY id DESC LIMIT $1)`, keep)
		n = tag.RowsAffected()
		return err
	})
	return int(n), err
}

// scanPGRun reads a runs row.
func scanPGRun(scan func(...any) error) (Run, error) {
	var r Run
	var st, fin *int64
	err := scan(&r.ID, &r.Kind, &r.Command, &r.Login, &r.Controller, &r.Playbooks, &st, &fin, &r.Status, &r.Recap)
	r.Started, r.Finished = fromPGStamp(st), fromPGStamp(fin)
	return r, err
}
