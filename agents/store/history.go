package store

import (
	"context"
	"database/sql"
	"regexp"
	"time"

	"github.com/tender-sh/tender/agents"
)

// Rollout is a recorded rollout.
type Rollout struct {
	ID                    int64
	Agent, Version, Owner string
	Hosts                 int
	Summary               string
	Started, Finished     time.Time // Finished is zero while running
	Outcome               string
}

// Deployment is a recorded deploy of one host.
type Deployment struct {
	ID, Rollout         int64 // Rollout 0: none (a reconnect)
	Host, Agent, Reason string
	Started, Finished   time.Time
	Outcome, Error      string
	Wave                int // the rollout's wave, from 1; 0: none
}

// expiredRollout is true of a rollouts row still marked running whose
// lease expired before the query's first argument (now): it is shown
// abandoned, as StartRollout will record it. A read-only ledger is never
// written, so the reads judge it too.
const expiredRollout = `outcome = '` + agents.OutcomeRunning + `' AND expires > 0 AND expires < ?`

// History returns the last limit rollouts and deployments, newest first,
// optionally only those of one host ("" for all). A running rollout whose
// lease expired, and its unfinished deployments, are shown abandoned.
func (s *Store) History(ctx context.Context, host string, limit int) ([]Rollout, []Deployment, error) {
	if limit <= 0 {
		limit = 50
	}
	var rs []Rollout
	now := s.stamp()
	rows, err := s.db.QueryContext(ctx, `SELECT id, agent, version, owner, hosts, summary, started,
		CASE WHEN `+expiredRollout+` THEN expires ELSE finished END,
		CASE WHEN `+expiredRollout+` THEN ? ELSE outcome END
		FROM rollouts ORDER BY id DESC LIMIT ?`, now, now, agents.OutcomeAbandoned, limit)
	if err != nil {
		return nil, nil, err
	}
	for rows.Next() {
		var r Rollout
		var st, fin sql.NullInt64
		if err := rows.Scan(&r.ID, &r.Agent, &r.Version, &r.Owner, &r.Hosts, &r.Summary, &st, &fin, &r.Outcome); err != nil {
			rows.Close()
			return nil, nil, err
		}
		r.Started, r.Finished = fromStamp(st), fromStamp(fin)
		rs = append(rs, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	rows, err = s.db.QueryContext(ctx, `SELECT d.id, COALESCE(d.rollout, 0), d.host, d.agent, d.reason, d.started, d.finished,
		CASE WHEN d.finished IS NULL AND r.outcome = '`+agents.OutcomeRunning+`' AND r.expires > 0 AND r.expires < ? THEN ? ELSE d.outcome END,
		d.error, `+waveColumn(s.schema)+`
		FROM deployments d LEFT JOIN rollouts r ON r.id = d.rollout
		WHERE ? = '' OR d.host = ? ORDER BY d.id DESC LIMIT ?`, now, agents.OutcomeAbandoned, host, host, limit)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var ds []Deployment
	for rows.Next() {
		var d Deployment
		var st, fin sql.NullInt64
		if err := rows.Scan(&d.ID, &d.Rollout, &d.Host, &d.Agent, &d.Reason, &st, &fin, &d.Outcome, &d.Error, &d.Wave); err != nil {
			return nil, nil, err
		}
		d.Started, d.Finished = fromStamp(st), fromStamp(fin)
		ds = append(ds, d)
	}
	return rs, ds, rows.Err()
}

// secretKV matches "password=xyz", "token: xyz", "secret":"xyz" and the
// like, so the value can be blanked.
var secretKV = regexp.MustCompile(`(?i)((?:password|passwd|pass|secret|token|api_?key)["']?\s*[=:]\s*["']?)([^\s"',}]+)`)

// Redact blanks the values of password-, secret- and token-like settings
// in text recorded in the ledger. The Deployer also removes the values of
// the secrets it knows before text reaches the store.
func Redact(text string) string {
	return secretKV.ReplaceAllString(text, "${1}********")
}
