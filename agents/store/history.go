package store

import (
	"context"
	"database/sql"
	"regexp"
	"time"
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
}

// History returns the last limit rollouts and deployments, newest first,
// optionally only those of one host ("" for all).
func (s *Store) History(ctx context.Context, host string, limit int) ([]Rollout, []Deployment, error) {
	if limit <= 0 {
		limit = 50
	}
	var rs []Rollout
	rows, err := s.db.QueryContext(ctx, `SELECT id, agent, version, owner, hosts, summary, started, finished, outcome
		FROM rollouts ORDER BY id DESC LIMIT ?`, limit)
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
	rows, err = s.db.QueryContext(ctx, `SELECT id, COALESCE(rollout, 0), host, agent, reason, started, finished, outcome, error
		FROM deployments WHERE ? = '' OR host = ? ORDER BY id DESC LIMIT ?`, host, host, limit)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var ds []Deployment
	for rows.Next() {
		var d Deployment
		var st, fin sql.NullInt64
		if err := rows.Scan(&d.ID, &d.Rollout, &d.Host, &d.Agent, &d.Reason, &st, &fin, &d.Outcome, &d.Error); err != nil {
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
