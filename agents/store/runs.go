package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Run is a recorded run of tender play or tender run.
type Run struct {
	ID int64
	// Kind is play (tender play, ansible-playbook) or run (tender run,
	// the ansible command).
	Kind string
	// Command is the command line, the values of -e left out.
	Command string
	// Login and Controller are the user who ran it and the machine.
	Login, Controller string
	// Playbooks are the playbooks' paths (or the ad-hoc pattern and
	// module), space-separated.
	Playbooks         string
	Started, Finished time.Time // Finished is zero while it runs
	// Status is running, ok, failed (a host failed), unreachable,
	// interrupted or error (the run could not go on).
	Status string
	// Recap is the recap's counts per host, as JSON.
	Recap string
}

// RunResult is one host's outcome of one task of a run.
type RunResult struct {
	Play, Task, Host string
	// Status is as a host_result event says it (ok, changed, failed,
	// skipping, unreachable), or ignored for a failure ignore_errors
	// ignored.
	Status string
	// Msg is the result's message, secrets blanked, at most 4 KiB.
	Msg string
	At  time.Time
}

// ErrNoRun is RunResults' error for an ID the history does not hold.
var ErrNoRun = errors.New("no such run in the history")

// StartRun records a run that begins (its Status running) and returns
// its ID.
func (s *Store) StartRun(ctx context.Context, r Run) (int64, error) {
	var id int64
	err := s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO runs (kind, command, login, controller, playbooks, started, status)
			VALUES (?, ?, ?, ?, ?, ?, 'running')`, r.Kind, r.Command, r.Login, r.Controller, r.Playbooks, s.stamp())
		if err != nil {
			return err
		}
		id, err = res.LastInsertId()
		return err
	})
	return id, err
}

// AddRunResults appends results to run id, after those it has.
func (s *Store) AddRunResults(ctx context.Context, id int64, rs []RunResult) error {
	if len(rs) == 0 {
		return nil
	}
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var next int64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) + 1 FROM run_results WHERE run = ?`, id).Scan(&next); err != nil {
			return err
		}
		st, err := tx.PrepareContext(ctx, `INSERT INTO run_results (run, seq, play, task, host, status, msg, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer st.Close()
		for i, r := range rs {
			if _, err := st.ExecContext(ctx, id, next+int64(i), r.Play, r.Task, r.Host, r.Status, r.Msg, r.At.UnixNano()); err != nil {
				return err
			}
		}
		return nil
	})
}

// FinishRun records how run id ended and its recap.
func (s *Store) FinishRun(ctx context.Context, id int64, status, recap string) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE runs SET finished = ?, status = ?, recap = ? WHERE id = ?`, s.stamp(), status, recap, id)
		return err
	})
}

// Runs returns the last limit runs (50 when limit is 0), newest first.
func (s *Store) Runs(ctx context.Context, limit int) ([]Run, error) {
	if limit <= 0 {
		limit = 50
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+runColumns+` FROM runs ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		r, err := scanRun(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// MaxRunResults bounds what RunResults reads of one run: its first
// results, in the order recorded.
const MaxRunResults = 200000

// RunResults returns run id and its results (the first MaxRunResults),
// in the order recorded; an ID the history does not hold gives ErrNoRun.
func (s *Store) RunResults(ctx context.Context, id int64) (Run, []RunResult, error) {
	r, err := scanRun(s.db.QueryRowContext(ctx, `SELECT `+runColumns+` FROM runs WHERE id = ?`, id).Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, nil, ErrNoRun
	}
	if err != nil {
		return Run{}, nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT play, task, host, status, msg, at FROM run_results WHERE run = ? ORDER BY seq LIMIT ?`, id, MaxRunResults)
	if err != nil {
		return r, nil, err
	}
	defer rows.Close()
	var out []RunResult
	for rows.Next() {
		var x RunResult
		var at int64
		if err := rows.Scan(&x.Play, &x.Task, &x.Host, &x.Status, &x.Msg, &at); err != nil {
			return r, nil, err
		}
		x.At = time.Unix(0, at)
		out = append(out, x)
	}
	return r, out, rows.Err()
}

// PruneRuns keeps the newest keep runs and deletes the others with their
// results; it returns how many it deleted.
func (s *Store) PruneRuns(ctx context.Context, keep int) (int, error) {
	var n int64
	err := s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM runs WHERE id NOT IN (SELECT id FROM runs ORDER BY id DESC LIMIT ?)`, keep)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
}

// runColumns are a runs row's columns in scanRun's order.
const runColumns = `id, kind, command, login, controller, playbooks, started, finished, status, recap`

// scanRun reads a runs row.
func scanRun(scan func(...any) error) (Run, error) {
	var r Run
	var st, fin sql.NullInt64
	err := scan(&r.ID, &r.Kind, &r.Command, &r.Login, &r.Controller, &r.Playbooks, &st, &fin, &r.Status, &r.Recap)
	r.Started, r.Finished = fromStamp(st), fromStamp(fin)
	return r, err
}
