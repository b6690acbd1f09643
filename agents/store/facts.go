package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// MaxFactsEntry bounds one fact cache entry (a host's facts as JSON):
// SetFacts refuses a larger one and Facts does not read it.
const MaxFactsEntry = 16 << 20

// checkFactsEntry refuses an entry SetFacts may not store.
func checkFactsEntry(key string, data []byte) error {
	if key == "" {
		return errors.New("fact cache: an entry needs a key")
	}
	if len(data) > MaxFactsEntry {
		return fmt.Errorf("fact cache: the facts of %s are %d bytes, more than the ledger keeps (%d MiB)", key, len(data), MaxFactsEntry>>20)
	}
	return nil
}

// factsEntry is Facts' answer for a row read: its data, its size in
// bytes and when it was stored, or the read's error.
func factsEntry(key, data string, size, stored int64, err error) ([]byte, time.Time, bool, error) {
	switch {
	case errors.Is(err, sql.ErrNoRows) || isPGNoRows(err):
		return nil, time.Time{}, false, nil
	case err != nil:
		return nil, time.Time{}, false, err
	case size > MaxFactsEntry:
		return nil, time.Time{}, false, fmt.Errorf("fact cache: the facts of %s are %d bytes, more than tender reads (%d MiB)", key, size, MaxFactsEntry>>20)
	}
	return []byte(data), time.Unix(0, stored), true, nil
}

// Facts returns the fact cache's entry under key (a host's facts as
// JSON) and when it was stored; ok is false when there is none. See
// FactCache.
func (s *Store) Facts(ctx context.Context, key string) (data []byte, stored time.Time, ok bool, err error) {
	if s.schema < schemaWaves {
		return nil, time.Time{}, false, nil
	}
	var text string
	var size, at int64
	err = s.db.QueryRowContext(ctx, `SELECT CASE WHEN length(CAST(data AS BLOB)) <= ? THEN data ELSE '' END, length(CAST(data AS BLOB)), stored
		FROM facts WHERE key = ?`, MaxFactsEntry, key).Scan(&text, &size, &at)
	return factsEntry(key, text, size, at, err)
}

// SetFacts replaces the fact cache's entry under key, stamped now.
func (s *Store) SetFacts(ctx context.Context, key string, data []byte) error {
	if err := checkFactsEntry(key, data); err != nil {
		return err
	}
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO facts (key, data, stored) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET data = excluded.data, stored = excluded.stored`, key, string(data), s.stamp())
		return err
	})
}

// DeleteFacts forgets the fact cache's entry under key.
func (s *Store) DeleteFacts(ctx context.Context, key string) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM facts WHERE key = ?`, key)
		return err
	})
}
